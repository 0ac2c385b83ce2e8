import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@loupe/errors";
import { callWithRetries, retryDelayFor, type RetryPolicy } from "./call-with-retries.js";

const DEFAULT_POLICY: RetryPolicy = { retries: 3, retryDelayMs: 100, maxRetryDelayMs: 5_000 };
const FAST_POLICY: RetryPolicy = { retries: 3, retryDelayMs: 5, maxRetryDelayMs: 50 };

function failing(codes: ReadonlyArray<AppError["code"]>): { attempt: (timeoutMs: number) => Promise<string>; calls: number[] } {
  const calls: number[] = [];
  return {
    calls,
    attempt: async (timeoutMs) => {
      calls.push(timeoutMs);
      const code = codes[calls.length - 1];
      if (code !== undefined) throw new AppError(code, `failed [attempt=${String(calls.length)}]`);
      return "ok";
    },
  };
}

describe("retryDelayFor()", () => {
  for (const [retry, expected] of [
    [0, 100],
    [1, 200],
    [2, 400],
    [3, 800],
    [10, 5_000],
  ] as const) {
    it(`waits ${String(expected)} ms before retry ${String(retry)}`, () => assert.equal(retryDelayFor(retry, DEFAULT_POLICY), expected));
  }
});

describe("callWithRetries()", () => {
  it("retries unavailable failures until an attempt succeeds", async () => {
    const { attempt, calls } = failing(["unavailable", "unavailable", "unavailable"]);
    assert.equal(await callWithRetries(attempt, { policy: FAST_POLICY, timeoutMs: 5_000, retry: true }), "ok");
    assert.equal(calls.length, 4);
    assert.ok(
      calls.every((timeoutMs, index) => index === 0 || timeoutMs <= (calls[index - 1] ?? 0)),
      "each attempt gets the time left",
    );
  });

  it("gives up after the configured retries with the last error", async () => {
    const { attempt, calls } = failing(["unavailable", "unavailable", "unavailable", "unavailable"]);
    await assert.rejects(callWithRetries(attempt, { policy: FAST_POLICY, timeoutMs: 5_000, retry: true }), {
      code: "unavailable",
      message: "failed [attempt=4]",
    });
    assert.equal(calls.length, 4);
  });

  for (const code of ["deadline_exceeded", "invalid_argument", "internal", "aborted"] as const) {
    it(`does not retry ${code}`, async () => {
      const { attempt, calls } = failing([code]);
      await assert.rejects(callWithRetries(attempt, { policy: FAST_POLICY, timeoutMs: 5_000, retry: true }), { code });
      assert.equal(calls.length, 1);
    });
  }

  it("attempts a non-retrying call once", async () => {
    const { attempt, calls } = failing(["unavailable"]);
    await assert.rejects(callWithRetries(attempt, { policy: FAST_POLICY, timeoutMs: 5_000, retry: false }), { code: "unavailable" });
    assert.equal(calls.length, 1);
  });

  it("stops retrying when the next delay would pass the deadline", async () => {
    const { attempt, calls } = failing(["unavailable", "unavailable"]);
    await assert.rejects(callWithRetries(attempt, { policy: DEFAULT_POLICY, timeoutMs: 50, retry: true }), { code: "unavailable" });
    assert.equal(calls.length, 1);
  });

  it("waits 100 then 200 ms with the default policy", async () => {
    const { attempt } = failing(["unavailable", "unavailable"]);
    const started = performance.now();
    await callWithRetries(attempt, { policy: DEFAULT_POLICY, timeoutMs: 5_000, retry: true });
    const elapsedMs = performance.now() - started;
    assert.ok(elapsedMs >= 295 && elapsedMs < 1_000, `elapsed ${String(elapsedMs)} ms`);
  });

  it("fails with cancelled when the signal aborts during a delay", async () => {
    const controller = new AbortController();
    const { attempt, calls } = failing(["unavailable", "unavailable"]);
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(callWithRetries(attempt, { policy: DEFAULT_POLICY, timeoutMs: 5_000, retry: true, signal: controller.signal }), { code: "cancelled" });
    assert.equal(calls.length, 1);
  });
});
