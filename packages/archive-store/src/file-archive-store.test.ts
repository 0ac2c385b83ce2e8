import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ArchiveStore } from "./archive-store.js";
import { createFileArchiveStore } from "./file-archive-store.js";
import { checkFolderListing, chunksOf, collect, encoder, hasCode, text } from "./testing/store-test-helpers.js";

describe("createFileArchiveStore()", () => {
  let directory = "";
  let store: ArchiveStore;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-archive-store-"));
    store = createFileArchiveStore({ directory });
  });
  after(async () => rm(directory, { recursive: true, force: true }));

  it("puts and gets a whole object, from bytes and from a stream", async () => {
    assert.equal(await store.put("t/a", encoder.encode("hello")), "created");
    assert.equal(text(await store.get("t/a")), "hello");
    assert.equal(await store.put("t/b", chunksOf("he", "", "llo ", "world")), "created");
    assert.equal(text(await store.get("t/b")), "hello world");
    assert.deepEqual(await store.stat("t/b"), { sizeBytes: 11 });
    assert.equal(await store.exists("t/b"), true);
  });

  it("overwrites without ifAbsent", async () => {
    await store.put("t/over", encoder.encode("one"));
    assert.equal(await store.put("t/over", encoder.encode("two")), "created");
    assert.equal(text(await store.get("t/over")), "two");
  });

  it("reads a range, clipped to the object, reading only those bytes", async () => {
    await store.put("t/range", encoder.encode("0123456789"));
    const before = store.stats.bytesReceived;
    assert.equal(text(await store.get("t/range", { range: { start: 2, end: 5 } })), "234");
    assert.equal(store.stats.bytesReceived - before, 3);
    assert.equal(text(await store.get("t/range", { range: { start: 7, end: 100 } })), "789");
    assert.equal((await store.get("t/range", { range: { start: 10, end: 20 } })).byteLength, 0);
    assert.equal((await store.get("t/range", { range: { start: 50, end: 60 } })).byteLength, 0);
    assert.equal((await store.get("t/range", { range: { start: 4, end: 4 } })).byteLength, 0);
    await assert.rejects(store.get("t/range", { range: { start: 5, end: 4 } }), hasCode("invalid_argument"));
    await assert.rejects(store.get("t/range", { range: { start: -1, end: 4 } }), hasCode("invalid_argument"));
  });

  it("with ifAbsent creates once, then answers exists and keeps the first body", async () => {
    assert.equal(await store.put("t/once", encoder.encode("first"), { ifAbsent: true }), "created");
    assert.equal(await store.put("t/once", encoder.encode("second"), { ifAbsent: true }), "exists");
    assert.equal(text(await store.get("t/once")), "first");
  });

  it("stores one copy when 20 creators race on one key", async () => {
    const bodies = Array.from({ length: 20 }, (_, index) => `body-${String(index)}-`.repeat(1000));
    const outcomes = await Promise.all(
      bodies.map((body, index) =>
        index % 2 === 0
          ? store.put("t/race", encoder.encode(body), { ifAbsent: true })
          : store.put("t/race", chunksOf(body.slice(0, 100), body.slice(100)), { ifAbsent: true }),
      ),
    );
    assert.equal(outcomes.filter((outcome) => outcome === "created").length, 1);
    assert.equal(outcomes.filter((outcome) => outcome === "exists").length, 19);
    const winner = outcomes.indexOf("created");
    assert.equal(text(await store.get("t/race")), bodies[winner]);
    const leftovers = (await readdir(join(directory, "t"))).filter((name) => name.startsWith("."));
    assert.deepEqual(leftovers, []);
  });

  it("refuses a body whose length differs from sizeBytes and stores nothing", async () => {
    await assert.rejects(store.put("t/sized", chunksOf("abc"), { sizeBytes: 4 }), hasCode("invalid_argument"));
    await assert.rejects(store.put("t/sized", chunksOf("abc", "de"), { sizeBytes: 4 }), hasCode("invalid_argument"));
    assert.equal(await store.exists("t/sized"), false);
    assert.equal(await store.put("t/sized", chunksOf("ab", "cd"), { sizeBytes: 4 }), "created");
  });

  it("lists every key under a prefix in byte order, skipping temporary files", async () => {
    const fresh = createFileArchiveStore({ directory: join(directory, "listing") });
    const keys = ["a/b", "a-c", "a/b.lines", "a/z/y", "b", "a/c/d/e"];
    for (const key of keys) await fresh.put(key, encoder.encode(key));
    await writeFile(join(directory, "listing", "a", ".stray.tmp"), "x");
    assert.deepEqual(await collect(fresh.list("")), [...keys].sort());
    assert.deepEqual(await collect(fresh.list("a/")), ["a/b", "a/b.lines", "a/c/d/e", "a/z/y"]);
    assert.deepEqual(await collect(fresh.list("a/b")), ["a/b", "a/b.lines"]);
    assert.deepEqual(await collect(fresh.list("a")), ["a-c", "a/b", "a/b.lines", "a/c/d/e", "a/z/y"]);
    assert.deepEqual(await collect(fresh.list("nothing/")), []);
  });

  it("lists the folders directly under a prefix, skipping hidden ones", async () => {
    await checkFolderListing(store, "folders/");
    await mkdir(join(directory, "folders", ".hidden"), { recursive: true });
    assert.deepEqual(await collect(store.listFolders("folders/")), ["folders/a-b/", "folders/a/", "folders/b/", "folders/z9/"]);
    assert.ok((await collect(store.listFolders(""))).includes("folders/"));
  });

  it("deletes, and a missing key is fine", async () => {
    await store.put("t/gone", encoder.encode("x"));
    await store.delete("t/gone");
    assert.equal(await store.exists("t/gone"), false);
    await store.delete("t/gone");
    await store.delete("never/was/here");
  });

  it("answers not_found for a missing key or a folder", async () => {
    await assert.rejects(store.get("t/missing"), hasCode("not_found"));
    await assert.rejects(store.get("t/missing", { range: { start: 0, end: 0 } }), hasCode("not_found"));
    await assert.rejects(store.get("t"), hasCode("not_found"));
    assert.equal(await store.stat("t/missing"), undefined);
    assert.equal(await store.stat("t"), undefined);
  });

  it("refuses path traversal and malformed keys", async () => {
    const outside = join(directory, "..", "escaped");
    for (const key of ["../escaped", "t/../../escaped", "/etc/passwd", "", "a//b", "a/", "./a", "a/.hidden", "a b", "a\\b"]) {
      await assert.rejects(store.put(key, encoder.encode("x")), hasCode("invalid_argument"), key);
      await assert.rejects(store.get(key), hasCode("invalid_argument"), key);
    }
    await assert.rejects(collect(store.list("../")), hasCode("invalid_argument"));
    await assert.rejects(collect(store.list("/")), hasCode("invalid_argument"));
    await assert.rejects(readdir(outside), { code: "ENOENT" });
  });

  it("reports a key that collides with another key's folder as failed_precondition", async () => {
    await store.put("t/file", encoder.encode("x"));
    await assert.rejects(store.put("t/file/child", encoder.encode("y")), hasCode("failed_precondition"));
    await mkdir(join(directory, "t", "folder", "inner"), { recursive: true });
    await assert.rejects(store.put("t/folder", encoder.encode("y")), hasCode("failed_precondition"));
    await assert.rejects(store.put("t/folder", encoder.encode("y"), { ifAbsent: true }), hasCode("failed_precondition"));
  });

  it("puts again into a folder removed behind its back", async () => {
    await store.put("gone/a/x", encoder.encode("one"));
    await rm(join(directory, "gone"), { recursive: true });
    assert.equal(await store.put("gone/a/y", encoder.encode("two")), "created");
    assert.equal(text(await store.get("gone/a/y")), "two");
    assert.equal(await store.put("gone/a/x", encoder.encode("three"), { ifAbsent: true }), "created");
  });

  it("leaves no temporary files after many concurrent puts into one folder", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.put(`many/${String(index % 25)}`, encoder.encode(String(index)), { ifAbsent: index % 2 === 0 }).catch(String),
      ),
    );
    assert.ok(
      outcomes.every((outcome) => outcome === "created" || outcome === "exists"),
      String(outcomes),
    );
    assert.deepEqual(
      (await readdir(join(directory, "many"))).filter((name) => name.startsWith(".")),
      [],
    );
    assert.equal((await collect(store.list("many/"))).length, 25);
  });

  it("rewrites a key with the bytes it already holds without touching the file, until something else touches it", async () => {
    const inode = async (): Promise<number> => (await stat(join(directory, "marks", "m"))).ino;
    await store.put("marks/m", new Uint8Array(0));
    const first = await inode();
    assert.equal(await store.put("marks/m", new Uint8Array(0)), "created");
    assert.equal(await inode(), first, "the same bytes again: skipped");
    await store.delete("marks/m");
    assert.equal(await store.put("marks/m", new Uint8Array(0)), "created");
    assert.equal(await store.exists("marks/m"), true, "written again after a delete");
    const second = await inode();
    await store.put("marks/m", encoder.encode("other"));
    assert.notEqual(await inode(), second);
    assert.equal(text(await store.get("marks/m")), "other");
    await assert.rejects(store.put("marks/m", encoder.encode("other"), { sizeBytes: 4 }), hasCode("invalid_argument"));
  });

  it("stops on an aborted signal, also while the body is stalled", async () => {
    await assert.rejects(store.get("t/a", { signal: AbortSignal.abort() }), hasCode("cancelled"));
    const controller = new AbortController();
    async function* stalled(): AsyncGenerator<Uint8Array> {
      yield encoder.encode("start");
      await new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    }
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await assert.rejects(store.put("t/stalled", stalled(), { signal: controller.signal }), hasCode("cancelled"));
    assert.ok(Date.now() - started < 2000);
    assert.equal(await store.exists("t/stalled"), false);
    const expired = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await assert.rejects(store.put("t/late", encoder.encode("x"), { signal: expired }), hasCode("deadline_exceeded"));
  });
});
