import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createMemoryStateStore } from "@loupe/state-store";
import { createRateLimit } from "./rate-limit.js";

const allowed = async (check: () => Promise<void>): Promise<boolean | number> =>
  check().then(
    () => true,
    (error: unknown) => {
      assert.ok(isAppError(error) && error.code === "resource_exhausted" && error.reason === "rate_limited");
      return error.retryAfterMs ?? -1;
    },
  );

describe("per-tenant rate limit (a token bucket in the state store)", () => {
  it("lets a burst of one second's calls through, then one call per interval, and says when to retry", async () => {
    let now = 1_000_000;
    const limit = createRateLimit(createMemoryStateStore(), 10, () => now);
    for (let call = 0; call < 10; call++) assert.equal(await allowed(() => limit("a")), true, `call ${String(call)} of the burst`);
    assert.equal(await allowed(() => limit("a")), 100, "the 11th waits one interval (100 ms)");
    now += 50;
    assert.equal(await allowed(() => limit("a")), 50);
    now += 50;
    assert.equal(await allowed(() => limit("a")), true, "one call's worth refilled");
    assert.equal(await allowed(() => limit("a")), 100);
    assert.equal(await allowed(() => limit("b")), true, "tenants have buckets of their own");
  });

  it("never lets two bursts through around a second's edge, and holds the rate over time", async () => {
    let now = 5_000_950; // 50 ms before a second boundary
    const limit = createRateLimit(createMemoryStateStore(), 10, () => now);
    let passed = 0;
    for (let call = 0; call < 10; call++) if ((await allowed(() => limit("a"))) === true) passed++;
    now += 100; // across the boundary
    for (let call = 0; call < 10; call++) if ((await allowed(() => limit("a"))) === true) passed++;
    assert.equal(passed, 11, "the burst, then what 100 ms refilled (a fixed window would have let 20 through)");
    // Calls every 20 ms for 10 s: the rate, plus the burst at most.
    let sustained = 0;
    for (let step = 0; step < 500; step++) {
      now += 20;
      if ((await allowed(() => limit("a"))) === true) sustained++;
    }
    assert.ok(sustained >= 99 && sustained <= 101, `about 10 a second over 10 s: ${String(sustained)}`);
  });

  it("counts concurrent calls of one tenant once each (compare-and-set), and no limit at 0", async () => {
    const state = createMemoryStateStore();
    const limit = createRateLimit(state, 5, () => 42_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => allowed(() => limit("a"))));
    assert.equal(answers.filter((answer) => answer === true).length, 5);
    const none = createRateLimit(state, 0, () => 0);
    for (let call = 0; call < 100; call++) await none("a");
  });
});
