import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createAdmission } from "./admission.js";

/** A call that runs until `finish` is called. */
function pending(): { call: () => Promise<string>; finish: () => void; started: () => boolean } {
  let finish = (): void => undefined;
  let started = false;
  const call = () =>
    new Promise<string>((resolve) => {
      started = true;
      finish = () => resolve("done");
    });
  return { call, finish: () => finish(), started: () => started };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("admission", () => {
  it("runs at most maxInFlight calls, queues the next in order and sheds one that waits too long, with a pushback", async () => {
    const admission = createAdmission({ maxInFlight: 2, maxWaitMs: 50 });
    const calls = [pending(), pending(), pending()];
    const runs = calls.map((call) => admission.run(call.call));
    await tick();
    assert.deepEqual(
      calls.map((call) => call.started()),
      [true, true, false],
    );
    calls[0]?.finish();
    await tick();
    await tick();
    assert.equal(calls[2]?.started(), true, "the queued call runs when a slot frees");
    const late = pending();
    await assert.rejects(
      admission.run(late.call),
      (error) => isAppError(error) && error.code === "unavailable" && error.reason === "overloaded" && error.retryAfterMs === 250,
    );
    assert.equal(late.started(), false);
    for (const call of calls) call.finish();
    await Promise.all(runs);
    assert.deepEqual({ ...admission.counters }, { admitted: 3, queued: 2, shed: 1, limit: 2 });
  });

  it("shrinks the limit when saves near their budget and grows it back when they are quick again", async () => {
    let now = 0;
    const admission = createAdmission({ maxInFlight: 16, maxWaitMs: 10_000, minInFlight: 4 }, () => now);
    admission.observeSave(1500, 2000);
    assert.equal(admission.counters.limit, 12, "one slow save: three quarters");
    admission.observeSave(1900, 2000);
    assert.equal(admission.counters.limit, 12, "at most one shrink per 250 ms");
    for (let step = 0; step < 20; step++) {
      now += 300;
      admission.observeSave(2000, 2000);
    }
    assert.equal(admission.counters.limit, 4, "never below minInFlight");

    // With the limit at 4, a fifth call waits although maxInFlight is 16.
    const calls = Array.from({ length: 5 }, pending);
    const runs = calls.map((call) => admission.run(call.call));
    await tick();
    assert.equal(calls.filter((call) => call.started()).length, 4);
    // Quick saves: one more slot after about `limit` of them (4 → 5.12 after five), and the waiting call runs.
    for (let step = 0; step < 5; step++) admission.observeSave(100, 2000);
    await tick();
    assert.equal(admission.counters.limit, 5);
    assert.equal(calls[4]?.started(), true);
    for (let step = 0; step < 2000; step++) admission.observeSave(100, 2000);
    assert.equal(admission.counters.limit, 16, "back to maxInFlight, never above");
    admission.observeSave(700, 2000);
    assert.equal(admission.counters.limit, 16, "a save between a quarter and half its budget changes nothing");
    for (const call of calls) call.finish();
    await Promise.all(runs);
  });
});
