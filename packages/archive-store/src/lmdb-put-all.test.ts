import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ArchiveStore } from "./archive-store.js";
import { createLmdbArchiveStore, INLINE_MAX_BYTES } from "./lmdb-archive-store.js";
import { collect, encoder, hasCode, killLmdbSaveLoop, text } from "./testing/store-test-helpers.js";

describe("the LMDB store's putAll()", () => {
  let directory = "";
  let store: ArchiveStore;
  let putAll: NonNullable<ArchiveStore["putAll"]>;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-lmdb-put-all-"));
    store = createLmdbArchiveStore({ directory: join(directory, "db") });
    putAll = boundPutAll(store);
  });
  after(async () => {
    await store.close?.();
    await rm(directory, { recursive: true, force: true });
  });

  it("writes every object, answering in their order; an ifAbsent key that exists is left as it is", async () => {
    await store.put("a/kept", encoder.encode("first"));
    const outcomes = await putAll([
      { key: "a/one", body: encoder.encode("1") },
      { key: "a/kept", body: encoder.encode("second"), ifAbsent: true },
      { key: "a/two", body: encoder.encode("2"), ifAbsent: true },
      { key: "a/empty", body: new Uint8Array(0) },
    ]);
    assert.deepEqual(outcomes, ["created", "exists", "created", "created"]);
    assert.deepEqual(await collect(store.list("a/")), ["a/empty", "a/kept", "a/one", "a/two"]);
    assert.equal(text(await store.get("a/kept")), "first");
    assert.equal(text(await store.get("a/two")), "2");
    assert.deepEqual(await putAll([]), []);
  });

  it("says once, inside its transaction, that the write is in hand; a throwing listener does not stop the write", async () => {
    const told: string[] = [];
    const written = putAll([{ key: "h/one", body: encoder.encode("1") }], { onAccepted: () => told.push("accepted") }).then((outcomes) => {
      told.push("resolved");
      return outcomes;
    });
    assert.deepEqual(told, [], "not before the transaction runs");
    assert.deepEqual(await written, ["created"]);
    assert.deepEqual(told, ["accepted", "resolved"]);
    const throwing = (): never => {
      throw new Error("listener");
    };
    assert.deepEqual(await putAll([{ key: "h/two", body: encoder.encode("2") }], { onAccepted: throwing }), ["created"]);
    assert.equal(text(await store.get("h/two")), "2");
    let refused = 0;
    await assert.rejects(putAll([{ key: "h/x", body: Buffer.alloc(INLINE_MAX_BYTES + 1) }], { onAccepted: () => refused++ }), hasCode("invalid_argument"));
    assert.equal(refused, 0, "a refused write is never in hand");
  });

  it("refuses a repeated key, a body over the inline size, a malformed key or an aborted signal, and then writes none", async () => {
    await assert.rejects(
      putAll([
        { key: "b/x", body: encoder.encode("x") },
        { key: "b/x", body: encoder.encode("y") },
      ]),
      hasCode("invalid_argument"),
    );
    await assert.rejects(
      putAll([
        { key: "b/small", body: encoder.encode("x") },
        { key: "b/large", body: Buffer.alloc(INLINE_MAX_BYTES + 1) },
      ]),
      hasCode("invalid_argument"),
    );
    await assert.rejects(
      putAll([
        { key: "b/ok", body: encoder.encode("x") },
        { key: "../b", body: encoder.encode("x") },
      ]),
      hasCode("invalid_argument"),
    );
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(putAll([{ key: "b/aborted", body: encoder.encode("x") }], { signal: controller.signal }), hasCode("cancelled"));
    assert.deepEqual(await collect(store.list("b/")), []);
  });

  it("replaces a key kept in a body file with a value, and removes the file", async () => {
    const bodyFiles = () => readdir(join(directory, "db", "bodies")).then((names) => names.filter((name) => !name.startsWith(".")));
    await store.put("c/big", Buffer.alloc(INLINE_MAX_BYTES + 10, "z"));
    const withFile = (await bodyFiles()).length;
    assert.deepEqual(await putAll([{ key: "c/big", body: encoder.encode("small now") }]), ["created"]);
    assert.equal(text(await store.get("c/big")), "small now");
    assert.equal((await bodyFiles()).length, withFile - 1);
  });

  it("is durable when it resolves: what it wrote reads back after the store is opened again", async () => {
    await putAll([
      { key: "d/one", body: encoder.encode("1") },
      { key: "d/two", body: encoder.encode("2") },
    ]);
    await store.close?.();
    store = createLmdbArchiveStore({ directory: join(directory, "db") });
    putAll = boundPutAll(store);
    assert.equal(text(await store.get("d/one")), "1");
    assert.equal(text(await store.get("d/two")), "2");
    // Overwritten bodies are remembered as flushed: the same bytes again are answered without a write.
    assert.deepEqual(await putAll([{ key: "d/marker", body: new Uint8Array(0) }]), ["created"]);
    const own = store;
    await own.close?.();
    assert.equal(await own.put("d/marker", new Uint8Array(0)), "created");
    store = createLmdbArchiveStore({ directory: join(directory, "db") });
  });

  it("keeps all of a step or none of it when the process is killed, and every acknowledged step", async () => {
    const folder = join(directory, "killed");
    // Steps as the archive's small Puts make them: a blob, its index and a record in one putAll.
    const acknowledged = await killLmdbSaveLoop(
      folder,
      `const keys = ["k/" + index + "/blob", "k/" + index + "/index", "k/" + index + "/record"];
      await store.putAll(keys.map((key) => ({ key, body: new TextEncoder().encode(key.repeat(200)), ifAbsent: true })));`,
      200,
    );
    const reopened = createLmdbArchiveStore({ directory: folder });
    try {
      const steps = new Map<string, string[]>();
      for await (const key of reopened.list("k/")) {
        const step = key.split("/")[1] ?? "";
        steps.set(step, [...(steps.get(step) ?? []), key]);
      }
      for (const [step, keys] of steps) assert.equal(keys.length, 3, `step ${step}: ${keys.join(", ")}`);
      for (let index = 0; index <= acknowledged; index++) {
        assert.equal(text(await reopened.get(`k/${String(index)}/record`)), `k/${String(index)}/record`.repeat(200));
      }
    } finally {
      await reopened.close?.();
    }
  });
});

function boundPutAll(store: ArchiveStore): NonNullable<ArchiveStore["putAll"]> {
  const bound = store.putAll?.bind(store);
  assert.ok(bound, "the LMDB store has putAll");
  return bound;
}
