import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import type { Socket } from "node:net";
import { after, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createRedisStateStore } from "@loupe/state-store/redis";
import { describeStateStoreContract } from "@loupe/state-store/testing";
import { Redis } from "ioredis";

const REDIS_URL = "redis://127.0.0.1:6379";
const runPrefix = `loupe-test:state-store:${randomUUID()}:`;
let stores = 0;

// Every store of this run writes under runPrefix; one sweep at the end removes what is left.
after(async () => {
  const cleanup = createRedisStateStore({ url: REDIS_URL, keyPrefix: runPrefix });
  try {
    await cleanup.deletePrefix("");
  } finally {
    await cleanup.close();
  }
});

describeStateStoreContract("createRedisStateStore() against Redis", async () =>
  createRedisStateStore({ url: REDIS_URL, keyPrefix: `${runPrefix}${(stores += 1)}:` }),
);

describe("createRedisStateStore()", () => {
  it("writes under keyPrefix and deletes only its own keys", async () => {
    const raw = new Redis(REDIS_URL);
    const left = createRedisStateStore({ url: REDIS_URL, keyPrefix: `${runPrefix}left:` });
    const right = createRedisStateStore({ url: REDIS_URL, keyPrefix: `${runPrefix}right:` });
    try {
      await left.set("k", "l");
      await right.set("k", "r");
      assert.equal(await raw.get(`${runPrefix}left:k`), "l");
      assert.equal(await left.deletePrefix(""), 1);
      assert.equal(await right.get("k"), "r");
    } finally {
      await Promise.all([left.close(), right.close(), raw.quit()]);
    }
  });

  it("falls back to EVAL when the server has no cached script", async () => {
    const raw = new Redis(REDIS_URL);
    const store = createRedisStateStore({ url: REDIS_URL, keyPrefix: `${runPrefix}noscript:` });
    try {
      assert.equal(await store.compareAndSet("k", undefined, "1"), true);
      await raw.script("FLUSH");
      assert.equal(await store.compareAndSet("k", "1", "2"), true);
      assert.equal(await store.increment("n", 3, { ttlMs: 10_000 }), 3);
    } finally {
      await Promise.all([store.close(), raw.quit()]);
    }
  });

  it("fails fast with unavailable when nothing listens", async () => {
    const store = createRedisStateStore({ url: "redis://127.0.0.1:1" });
    try {
      for (const call of [() => store.ping(), () => store.get("k"), () => store.set("k", "v"), () => store.compareAndSet("k", undefined, "v")]) {
        await assertUnavailableWithin(call(), 2_000);
      }
    } finally {
      await store.close();
    }
  });

  it("fails with unavailable after commandTimeoutMs when the server never answers", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    assert.ok(address !== null && typeof address === "object");
    const store = createRedisStateStore({ url: `redis://127.0.0.1:${address.port}`, commandTimeoutMs: 300 });
    try {
      await assertUnavailableWithin(store.ping(), 1_500);
    } finally {
      await store.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

async function assertUnavailableWithin(promise: Promise<unknown>, limitMs: number): Promise<void> {
  const startedMs = Date.now();
  await assert.rejects(promise, (error: unknown) => isAppError(error) && error.code === "unavailable" && error.message.startsWith("redis unavailable"));
  const elapsedMs = Date.now() - startedMs;
  assert.ok(elapsedMs < limitMs, `took ${elapsedMs} ms`);
}
