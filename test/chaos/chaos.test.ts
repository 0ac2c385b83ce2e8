import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatChaos, runChaos } from "./run-chaos.js";

// The short fault run of the test command (`pnpm chaos [seconds]` runs longer phases on its own).
const PHASE_MS = 2000;

/** Phases in which no Project answer may come back whole for want of the archive. */
const ARCHIVE_UP = /^(none|NATS|Redis|note-worker)/;

describe("faults under load (2 s phases: radosgw, NATS, Redis, the archive and the note-worker stopped and restarted)", () => {
  it("loses no accepted turn, stores none twice, lets the notes catch up, and fails open only while the archive or S3 is down", async (t) => {
    const report = await runChaos(PHASE_MS);
    for (const line of formatChaos(report).split("\n")) t.diagnostic(line);
    assert.ok(report.accepted > 0, "turns were accepted under load");
    assert.equal(report.lost, 0, "no accepted turn lost");
    assert.equal(report.twice, 0, "no turn stored twice");
    assert.equal(report.converged, report.sessions, "every session's note caught up");
    const steady = report.phases[0];
    assert.ok(steady !== undefined && steady.tally.requests > 0);
    assert.equal(steady.tally.errors, 0, "no error under steady load");
    for (const { name, tally } of report.phases) {
      assert.ok(tally.requests > 0, `requests were served or refused in phase ${name}`);
      if (ARCHIVE_UP.test(name)) assert.equal(tally.failOpen, 0, `no fail-open answer in phase ${name}`);
    }
  });
});
