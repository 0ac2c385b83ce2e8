import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import type { ArchiveStore } from "./archive-store.js";
import { createLmdbArchiveStore } from "./lmdb-archive-store.js";

const encoder = new TextEncoder();
const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function* chunksOf(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield encoder.encode(part);
}

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all;
}

const hasCode =
  (code: string) =>
  (error: unknown): boolean =>
    isAppError(error) && error.code === code;

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

  it("is open in one process at a time: a second store on the folder is refused", async () => {
    const second = createLmdbArchiveStore({ directory: join(directory, "db") });
    await assert.rejects(second.get("t/a/one"), hasCode("failed_precondition"));
  });

  it("keeps every acknowledged object when the process is killed, and opens again after it", async () => {
    const folder = join(directory, "killed");
    const moduleUrl = pathToFileURL(join(import.meta.dirname, "lmdb-archive-store.ts")).href;
    // Saves as the archive does (deferred puts, then one sync), and says which saves were acknowledged.
    const script = `
      const { createLmdbArchiveStore } = await import(${JSON.stringify(moduleUrl)});
      const store = createLmdbArchiveStore({ directory: ${JSON.stringify(folder)} });
      for (let index = 0; ; index += 1) {
        const keys = ["k/" + index + "/blob", "k/" + index + "/record"];
        await Promise.all(keys.map((key) => store.put(key, new TextEncoder().encode(key.repeat(500)), { deferSync: true })));
        await store.sync(keys);
        process.stdout.write(index + "\\n");
      }`;
    const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let acknowledged = -1;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (line !== "") acknowledged = Number(line);
      if (acknowledged >= 200) child.kill("SIGKILL");
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, exitSignal) => resolve(exitSignal)));
    assert.equal(signal, "SIGKILL");
    assert.ok(acknowledged >= 200);
    const reopened = createLmdbArchiveStore({ directory: folder });
    try {
      for (let index = 0; index <= acknowledged; index++) {
        for (const key of [`k/${String(index)}/blob`, `k/${String(index)}/record`]) assert.equal(text(await reopened.get(key)), key.repeat(500), key);
      }
    } finally {
      await reopened.close?.();
    }
  });
});
