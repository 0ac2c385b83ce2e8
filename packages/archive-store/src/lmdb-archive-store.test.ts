import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ArchiveStore } from "./archive-store.js";
import { createLmdbArchiveStore, INLINE_MAX_BYTES } from "./lmdb-archive-store.js";
import { checkFolderListing, chunksOf, collect, encoder, hasCode, killLmdbSaveLoop, text } from "./testing/store-test-helpers.js";

/** Retries `check` for up to 5 s (a replaced file goes once its change is flushed). */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe("createLmdbArchiveStore()", () => {
  let directory = "";
  let store: ArchiveStore;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-lmdb-store-"));
    store = createLmdbArchiveStore({ directory: join(directory, "db") });
  });
  after(async () => {
    await store.close?.();
    await rm(directory, { recursive: true, force: true });
  });

  it("puts and gets a whole object, from bytes and from a stream, and overwrites without ifAbsent", async () => {
    assert.equal(await store.put("t/a/one", encoder.encode("first")), "created");
    assert.equal(await store.put("t/a/two", chunksOf("str", "eam", "ed"), { sizeBytes: 8 }), "created");
    assert.equal(text(await store.get("t/a/one")), "first");
    assert.equal(text(await store.get("t/a/two")), "streamed");
    assert.equal(await store.put("t/a/one", encoder.encode("second")), "created");
    assert.equal(text(await store.get("t/a/one")), "second");
    assert.deepEqual(await store.stat("t/a/two"), { sizeBytes: 8 });
    assert.equal(await store.exists("t/a/none"), false);
  });

  it("rewrites a key with the bytes it already flushed without a write, until something else touches it", async () => {
    await store.put("marks/m", new Uint8Array(0));
    assert.equal(await store.put("marks/m", new Uint8Array(0)), "created");
    await store.delete("marks/m");
    assert.equal(await store.exists("marks/m"), false);
    assert.equal(await store.put("marks/m", new Uint8Array(0)), "created");
    assert.equal(await store.exists("marks/m"), true, "written again after a delete");
    await store.put("marks/m", encoder.encode("other"));
    assert.equal(await store.put("marks/m", new Uint8Array(0)), "created");
    assert.equal(text(await store.get("marks/m")), "", "written again after other bytes");
    // A deferred put is not known durable: the same bytes again are written (and wait for the flush).
    await store.put("marks/d", encoder.encode("x"), { deferSync: true });
    assert.equal(await store.put("marks/d", encoder.encode("x")), "created");
    // Answered without the database: a store closed since answers the same bytes, and refuses others.
    const own = createLmdbArchiveStore({ directory: join(directory, "memo") });
    await own.put("marks/m", encoder.encode("held"));
    await own.close?.();
    assert.equal(await own.put("marks/m", encoder.encode("held")), "created");
    await assert.rejects(own.put("marks/m", encoder.encode("new")));
  });

  it("reads a value larger than lmdb-js's shared read buffer, whole and by range", async () => {
    const large = new Uint8Array(20 * 1024 * 1024).map((_, index) => index % 251);
    await store.put("t/large", large);
    assert.deepEqual(await store.stat("t/large"), { sizeBytes: large.byteLength });
    assert.equal(Buffer.compare(await store.get("t/large"), large), 0);
    const tail = await store.get("t/large", { range: { start: large.byteLength - 10, end: large.byteLength + 10 } });
    assert.deepEqual([...tail], [...large.subarray(large.byteLength - 10)]);
  });

  it("reads a range, clipped to the object", async () => {
    await store.put("t/range", encoder.encode("0123456789"));
    assert.equal(text(await store.get("t/range", { range: { start: 2, end: 5 } })), "234");
    assert.equal(text(await store.get("t/range", { range: { start: 8, end: 50 } })), "89");
    assert.equal(text(await store.get("t/range", { range: { start: 20, end: 30 } })), "");
    await assert.rejects(store.get("t/range", { range: { start: 5, end: 2 } }), hasCode("invalid_argument"));
  });

  it("with ifAbsent creates once, then answers exists and keeps the first body; 20 racing creators store one", async () => {
    assert.equal(await store.put("t/once", encoder.encode("a"), { ifAbsent: true }), "created");
    assert.equal(await store.put("t/once", encoder.encode("b"), { ifAbsent: true }), "exists");
    assert.equal(text(await store.get("t/once")), "a");
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, index) => store.put("t/race", encoder.encode(String(index)), { ifAbsent: true })));
    assert.equal(outcomes.filter((outcome) => outcome === "created").length, 1);
    const winner = outcomes.indexOf("created");
    assert.equal(text(await store.get("t/race")), String(winner));
  });

  it("refuses a body whose length differs from sizeBytes and stores nothing", async () => {
    await assert.rejects(store.put("t/short", chunksOf("abc"), { sizeBytes: 5 }), hasCode("invalid_argument"));
    await assert.rejects(store.put("t/long", chunksOf("abcdef"), { sizeBytes: 5 }), hasCode("invalid_argument"));
    assert.equal(await store.exists("t/short"), false);
    assert.equal(await store.exists("t/long"), false);
  });

  it("lists every key under a prefix in byte order, page after page", async () => {
    const keys = Array.from({ length: 2500 }, (_, index) => `l/p/k${String(index).padStart(5, "0")}`);
    await Promise.all(keys.map((key) => store.put(key, new Uint8Array(0), { deferSync: true })));
    await store.sync?.(keys);
    await store.put("l/pz", encoder.encode("outside"));
    await store.put("l/o", encoder.encode("before"));
    assert.deepEqual(await collect(store.list("l/p/")), keys);
    assert.deepEqual((await collect(store.list("l/"))).length, 2502);
    assert.deepEqual(await collect(store.list("l/q")), []);
    await assert.rejects(collect(store.list("../x")), hasCode("invalid_argument"));
  });

  it("deletes (a missing key is fine) and answers not_found for a missing key", async () => {
    await store.put("t/gone", encoder.encode("x"));
    await store.delete("t/gone");
    await store.delete("t/gone");
    await assert.rejects(store.get("t/gone"), hasCode("not_found"));
    assert.equal(await store.stat("t/gone"), undefined);
  });

  it("refuses malformed keys and stops on an aborted signal", async () => {
    for (const key of ["", "../x", "a//b", "/abs", "a/.hidden"]) await assert.rejects(store.put(key, encoder.encode("x")), hasCode("invalid_argument"), key);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(store.put("t/aborted", encoder.encode("x"), { signal: controller.signal }), hasCode("cancelled"));
    assert.equal(await store.exists("t/aborted"), false);
  });

  it("keeps a body over INLINE_MAX_BYTES in a file of its own, and a stream of no stated size too", async () => {
    const bodyFiles = () => readdir(join(directory, "db", "bodies")).then((names) => names.filter((name) => !name.startsWith(".")));
    const before = (await bodyFiles().catch(() => [])).length;
    const large = Buffer.alloc(INLINE_MAX_BYTES + 1, "x");
    assert.equal(await store.put("f/large", large), "created");
    assert.equal(await store.put("f/stream", chunksOf("a", "b", "c")), "created");
    assert.equal((await bodyFiles()).length, before + 2);
    assert.equal(text(await store.get("f/stream")), "abc");
    assert.equal(text(await store.get("f/large", { range: { start: INLINE_MAX_BYTES - 1, end: INLINE_MAX_BYTES + 5 } })), "xx");
    assert.deepEqual(await store.stat("f/large"), { sizeBytes: INLINE_MAX_BYTES + 1 });
    assert.deepEqual(await collect(store.list("f/")), ["f/large", "f/stream"]);
    // Overwritten by a small body, then deleted: both files go.
    assert.equal(await store.put("f/large", encoder.encode("small now")), "created");
    assert.equal(text(await store.get("f/large")), "small now");
    await store.delete("f/stream");
    await assert.rejects(store.get("f/stream"), hasCode("not_found"));
    await eventually(async () => assert.equal((await bodyFiles()).length, before));
  });

  it("stores one large body when 10 creators race on one key, and leaves no file of the losers", async () => {
    const bodyFiles = () => readdir(join(directory, "db", "bodies")).then((names) => names.filter((name) => !name.startsWith(".")));
    const before = (await bodyFiles()).length;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.put("f/race", Buffer.alloc(INLINE_MAX_BYTES * 2, String(index)), { ifAbsent: true, sizeBytes: INLINE_MAX_BYTES * 2 }),
      ),
    );
    assert.equal(outcomes.filter((outcome) => outcome === "created").length, 1);
    const winner = String(outcomes.indexOf("created"));
    assert.equal(text(await store.get("f/race", { range: { start: 0, end: 3 } })), winner.repeat(3));
    await eventually(async () => assert.equal((await bodyFiles()).length, before + 1));
  });

  it("lists keys of small and large bodies together in byte order, across pages", async () => {
    const keys = Array.from({ length: 2100 }, (_, index) => `m/k${String(index).padStart(5, "0")}`);
    const large = new Set([0, 999, 1000, 1001, 1999, 2000, 2099].map((index) => keys[index]!));
    await Promise.all(keys.map((key) => store.put(key, large.has(key) ? Buffer.alloc(INLINE_MAX_BYTES + 10) : encoder.encode(key), { deferSync: true })));
    await store.sync?.(keys);
    assert.deepEqual(await collect(store.list("m/")), keys);
  });

  it("lists the folders directly under a prefix, of small and large bodies alike", async () => {
    await checkFolderListing(store, "folders/");
    // Folders whose only key has a body in a file of its own, and ones a deleted key leaves empty.
    await store.put("folders/large/only", Buffer.alloc(INLINE_MAX_BYTES + 10));
    await store.put("folders/gone/only", encoder.encode("x"));
    await store.delete("folders/gone/only");
    assert.deepEqual(await collect(store.listFolders("folders/")), ["folders/a-b/", "folders/a/", "folders/b/", "folders/large/", "folders/z9/"]);
  });

  it("removes at open the body files no key names (what a crash between writing and naming leaves)", async () => {
    const folder = join(directory, "orphans");
    const first = createLmdbArchiveStore({ directory: folder });
    await first.put("o/kept", Buffer.alloc(INLINE_MAX_BYTES + 1, "k"));
    await first.close?.();
    await writeFile(join(folder, "bodies", "left-by-a-crash"), "orphan");
    await writeFile(join(folder, "bodies", ".half-written.tmp"), "orphan");
    const second = createLmdbArchiveStore({ directory: folder });
    try {
      assert.equal((await second.get("o/kept")).byteLength, INLINE_MAX_BYTES + 1);
      assert.equal((await readdir(join(folder, "bodies"))).length, 1);
    } finally {
      await second.close?.();
    }
  });

  it("is open in one process at a time: a second store on the folder is refused", async () => {
    const second = createLmdbArchiveStore({ directory: join(directory, "db") });
    await assert.rejects(second.get("t/a/one"), hasCode("failed_precondition"));
  });

  it("keeps every acknowledged object when the process is killed, and opens again after it", async () => {
    const folder = join(directory, "killed");
    // Saves as the archive does (deferred puts, then one sync); a step is acknowledged once synced.
    const acknowledged = await killLmdbSaveLoop(
      folder,
      `const keys = ["k/" + index + "/blob", "k/" + index + "/record"];
      // Every third save's content is large: a file of its own.
      const body = (key) => new TextEncoder().encode(key.repeat(index % 3 === 0 && key.endsWith("blob") ? 40000 : 500));
      await Promise.all(keys.map((key) => store.put(key, body(key), { deferSync: true })));
      await store.sync(keys);`,
      200,
    );
    assert.ok(acknowledged >= 200);
    const reopened = createLmdbArchiveStore({ directory: folder });
    try {
      for (let index = 0; index <= acknowledged; index++) {
        for (const key of [`k/${String(index)}/blob`, `k/${String(index)}/record`]) {
          const repeat = index % 3 === 0 && key.endsWith("blob") ? 40000 : 500;
          assert.equal(text(await reopened.get(key)), key.repeat(repeat), key);
        }
      }
    } finally {
      await reopened.close?.();
    }
  });
});
