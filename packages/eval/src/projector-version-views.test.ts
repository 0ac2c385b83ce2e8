import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { createTokenCounter, MAX_VIEW_BYTES, PROJECTOR_VERSION, projectResult } from "@loupe/projection";
import { coreResultInput } from "./core-policy.js";
import { readCorpus } from "./read-corpus.js";
import { evalDataFiles } from "./testing/eval-data-files.js";

// What the projection core made of a fixed sample of the committed long outputs (every fourth, 200 real
// outputs of 8,000 characters or more: file reads, searches, test runs) under three requests, per projector
// version. Invariant 1 holds the same bytes for a given `projector_version`, and a history cut pins the
// version it was cut with: a change to what a view holds must name a new version. When this fails after a
// change to the projection core, bump PROJECTOR_VERSION and add its digest here; never edit an old entry. A
// change whose inputs the sample does not hold (0.9.7: chained tracebacks that share frames) names a new version
// all the same, with the sample's digest unchanged.
const VIEW_DIGESTS: Readonly<Record<string, string>> = {
  "loupe-projection/0.9.6": "52a56a644ec76bbb3a18da03e80f1ecc3914e8e2b702bbaa82453bf6e1fc3228",
  "loupe-projection/0.9.7": "52a56a644ec76bbb3a18da03e80f1ecc3914e8e2b702bbaa82453bf6e1fc3228",
};

const REQUESTS = [
  { budgetTokens: 1600, intent: false },
  { budgetTokens: 1600, intent: true },
  { budgetTokens: 800, intent: true },
] as const;

describe("views and the projector version", () => {
  it("the sample's views are those recorded for this PROJECTOR_VERSION", { timeout: 120_000 }, async () => {
    const corpus = await readCorpus(evalDataFiles());
    const rows = corpus.trajectories.flatMap((trajectory) => trajectory.rows).filter((_, index) => index % 4 === 0);
    assert.ok(rows.length >= 190, `${String(rows.length)} sampled outputs`);
    const counter = createTokenCounter();
    const digest = createHash("sha256");
    for (const row of rows)
      for (const { budgetTokens, intent } of REQUESTS) {
        const view = projectResult(coreResultInput(row, row.output), {
          budgetTokens,
          maxViewBytes: MAX_VIEW_BYTES,
          counter,
          resultId: "r_0123456789abcdefghijABCDEFGHIJ_-",
          view: "",
          ...(intent ? { intent: `${row.task}\n\n${row.previousAction}` } : {}),
        });
        digest.update(view.text).update("\u0000");
      }
    const found = digest.digest("hex");
    assert.equal(
      VIEW_DIGESTS[PROJECTOR_VERSION],
      found,
      `views changed under ${PROJECTOR_VERSION}: a change to what views hold names a new projector version (add "${found}" for it)`,
    );
  });
});
