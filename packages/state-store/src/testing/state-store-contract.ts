import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import type { ErrorCode } from "@loupe/errors";
import { stateKey, stateKeyPrefix } from "../state-key.js";
import type { StateStore } from "../state-store.js";

/**
 * Registers (with `node:test`) the behaviour every `StateStore` adapter must share, under
 * `describe(name)`. `open` returns a fresh, empty store for each test; the test closes it.
 * Takes about a second in all, most of it waiting for TTLs to run out.
 */
export function describeStateStoreContract(name: string, open: () => Promise<StateStore>): void {
  const test = (title: string, body: (store: StateStore) => Promise<void>): void => {
    it(title, async () => {
      const store = await open();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    });
  };

  describe(name, () => {
    test("reads back what was set, keeping empty, unicode and large values exact", async (store) => {
      assert.equal(await store.get("k:missing"), undefined);
      const values = ["", "plain", "línea 1\nlínea 2 — ✓ 🎉", "x".repeat(1 << 20)];
      for (const [index, value] of values.entries()) await store.set(`k:${index}`, value);
      for (const [index, value] of values.entries()) assert.equal(await store.get(`k:${index}`), value);
    });

    test("overwrites, deletes, and treats deleting a missing key as done", async (store) => {
      await store.set("k", "1");
      await store.set("k", "2");
      assert.equal(await store.get("k"), "2");
      await store.delete("k");
      assert.equal(await store.get("k"), undefined);
      await store.delete("k");
    });

    test("reports the remaining ttl; set without ttlMs clears it", async (store) => {
      assert.equal(await store.ttlMs("missing"), undefined);
      await store.set("k", "v");
      assert.equal(await store.ttlMs("k"), undefined);
      await store.set("k", "v", { ttlMs: 10_000 });
      const remainingMs = await store.ttlMs("k");
      assert.ok(remainingMs !== undefined && remainingMs > 9_000 && remainingMs <= 10_000, `ttl ${remainingMs}`);
      await store.set("k", "w");
      assert.equal(await store.ttlMs("k"), undefined);
    });

    test("expired keys read as missing, everywhere", async (store) => {
      await store.set("a", "v", { ttlMs: 60 });
      await store.set("b", "v", { ttlMs: 60 });
      await store.set("c", "7", { ttlMs: 60 });
      await store.set("p:1", "v", { ttlMs: 60 });
      await sleep(150);
      assert.equal(await store.get("a"), undefined);
      assert.equal(await store.ttlMs("a"), undefined);
      assert.equal(await store.compareAndSet("b", undefined, "new"), true);
      assert.equal(await store.increment("c", 1), 1);
      assert.equal(await store.deletePrefix("p:"), 0);
    });

    test("compareAndSet writes only over the expected value", async (store) => {
      assert.equal(await store.compareAndSet("k", "x", "1"), false);
      assert.equal(await store.get("k"), undefined);
      assert.equal(await store.compareAndSet("k", undefined, "1"), true);
      assert.equal(await store.compareAndSet("k", undefined, "2"), false);
      assert.equal(await store.compareAndSet("k", "other", "2"), false);
      assert.equal(await store.get("k"), "1");
      assert.equal(await store.compareAndSet("k", "1", "", { ttlMs: 10_000 }), true);
      assert.equal(await store.get("k"), "");
      assert.ok((await store.ttlMs("k")) !== undefined);
      assert.equal(await store.compareAndSet("k", "", "3"), true);
      assert.equal(await store.ttlMs("k"), undefined, "compareAndSet without ttlMs clears the ttl");
      assert.equal(await store.get("k"), "3");
    });

    test("50 concurrent compareAndSet calls from the same expected value: exactly one wins", async (store) => {
      for (const expected of [undefined, "base"]) {
        const key = `race:${expected ?? "absent"}`;
        if (expected !== undefined) await store.set(key, expected);
        const results = await Promise.all(Array.from({ length: 50 }, (_, index) => store.compareAndSet(key, expected, `writer-${index}`)));
        const winners = results.flatMap((won, index) => (won ? [index] : []));
        assert.equal(winners.length, 1, `expected ${String(expected)}: ${winners.length} winners`);
        assert.equal(await store.get(key), `writer-${winners[0]}`);
      }
    });

    test("increment adds atomically, starting from 0", async (store) => {
      assert.equal(await store.increment("n", 5), 5);
      assert.equal(await store.increment("n", -7), -2);
      await Promise.all(Array.from({ length: 50 }, () => store.increment("n", 1)));
      assert.equal(await store.get("n"), "48");
      await store.set("text", "12a");
      await assertRejects(store.increment("text", 1), "failed_precondition");
      await assertRejects(store.increment("n", 1.5), "invalid_argument");
    });

    test("increment with ttlMs resets the expiry; without it keeps the expiry", async (store) => {
      await store.increment("n", 1, { ttlMs: 10_000 });
      assert.ok(((await store.ttlMs("n")) ?? 0) > 9_000);
      await store.increment("n", 1);
      assert.ok(((await store.ttlMs("n")) ?? 0) > 9_000, "an increment without ttlMs keeps the ttl");
      await store.increment("n", 1, { ttlMs: 60 });
      await sleep(150);
      assert.equal(await store.get("n"), undefined);
    });

    test("deletePrefix removes exactly the keys under the prefix, glob characters included", async (store) => {
      const notes = stateKeyPrefix("tenant a", "notes");
      const keys = Array.from({ length: 1_200 }, (_, index) => stateKey("tenant a", "notes", `session ${index}`));
      await Promise.all(keys.map((key) => store.set(key, "v")));
      await store.set(stateKey("tenant a", "notes2", "x"), "kept");
      await store.set(stateKey("tenant b", "notes", "x"), "kept");
      for (const key of ["a*b", "a*c", "a?", "ab", "a[b]"]) await store.set(key, "v");
      assert.equal(await store.deletePrefix(notes), 1_200);
      assert.equal(await store.get(keys[0] ?? ""), undefined);
      assert.equal(await store.get(stateKey("tenant a", "notes2", "x")), "kept");
      assert.equal(await store.get(stateKey("tenant b", "notes", "x")), "kept");
      assert.equal(await store.deletePrefix("a*"), 2);
      assert.equal(await store.deletePrefix("a["), 1);
      assert.equal(await store.get("ab"), "v");
      assert.equal(await store.get("a?"), "v");
      assert.equal(await store.deletePrefix("nothing:"), 0);
    });

    test("rejects a bad ttl and an aborted signal without writing", async (store) => {
      for (const ttlMs of [0, -5, 1.5, Number.NaN]) {
        await assertRejects(store.set("k", "v", { ttlMs }), "invalid_argument");
      }
      const signal = AbortSignal.abort();
      await assertRejects(store.set("k", "v", { signal }), "cancelled");
      await assertRejects(store.compareAndSet("k", undefined, "v", { signal }), "cancelled");
      await assertRejects(store.increment("k", 1, { signal }), "cancelled");
      assert.equal(await store.get("k"), undefined);
    });

    test("ping answers while open; after close every call is unavailable", async (store) => {
      await store.ping();
      await store.close();
      await store.close();
      await assertRejects(store.ping(), "unavailable");
      await assertRejects(store.get("k"), "unavailable");
      await assertRejects(store.set("k", "v"), "unavailable");
    });
  });
}

async function assertRejects(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isAppError(error), `not an AppError: ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return true;
  });
}
