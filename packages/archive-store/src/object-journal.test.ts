import assert from "node:assert/strict";
import { cp, mkdtemp, open, readdir, readFile, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import { isAppError } from "@loupe/errors";
import { createFileArchiveStore } from "./file-archive-store.js";
import { JOURNAL_MAX_BODY_BYTES } from "./object-journal.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (data: Uint8Array): string => new TextDecoder().decode(data);
const journalFiles = async (root: string): Promise<string[]> => (await readdir(join(root, ".journal")).catch(() => [])).filter((name) => name.endsWith(".log"));

/**
 * The disk as a crash that lost the page cache leaves it: a copy of the store's folder taken while it runs
 * (nothing checkpointed), without the objects' files the journal made durable.
 */
async function crashed(root: string, lost: string): Promise<string> {
  const copy = `${root}-crashed`;
  await cp(root, copy, { recursive: true });
  await rm(join(copy, lost), { recursive: true, force: true });
  return copy;
}

describe("the file store's journal", () => {
  let root = "";
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "loupe-journal-"));
  });
  afterEach(async () => {
    mock.restoreAll();
    await rm(root, { recursive: true, force: true });
    await rm(`${root}-crashed`, { recursive: true, force: true });
  });

  it("a small object acknowledged but never fsynced as a file comes back from the journal after a crash; a deleted one stays deleted", async () => {
    const store = createFileArchiveStore({ directory: root });
    await store.put("t/a/one.json", bytes("first"));
    await store.put("t/a/one.json", bytes("second"));
    await store.put("t/b/two", bytes("kept"), { ifAbsent: true });
    await store.put("t/c/gone", bytes("deleted later"));
    await store.delete("t/c/gone");
    assert.equal((await journalFiles(root)).length, 1);
    const copy = await crashed(root, "t");
    await store.close?.();
    const reopened = createFileArchiveStore({ directory: copy });
    assert.equal(text(await reopened.get("t/a/one.json")), "second");
    assert.equal(text(await reopened.get("t/b/two")), "kept");
    assert.equal(await reopened.exists("t/c/gone"), false);
    // Replayed objects are files again, fsynced; the replayed journal is gone.
    assert.deepEqual(await journalFiles(copy), ["2.log"]);
    await reopened.close?.();
  });

  it("reads a folder the previous version wrote (objects as fsynced files, no journal) and goes on writing to it", async () => {
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(root, "v1", "t", "results"), { recursive: true });
    await writeFile(join(root, "v1", "t", "results", "r_old.json"), '{"resultId":"r_old"}');
    const store = createFileArchiveStore({ directory: root });
    assert.equal(text(await store.get("v1/t/results/r_old.json")), '{"resultId":"r_old"}');
    assert.equal(await store.put("v1/t/results/r_old.json", bytes("other"), { ifAbsent: true }), "exists");
    await store.put("v1/t/results/r_new.json", bytes("new"));
    const keys: string[] = [];
    for await (const key of store.list("v1/t/")) keys.push(key);
    assert.deepEqual(keys, ["v1/t/results/r_new.json", "v1/t/results/r_old.json"]);
    await store.close?.();
  });

  it("takes its folder for one writer: a second store on it is refused until the first closes", async () => {
    const store = createFileArchiveStore({ directory: root });
    await store.put("t/x", bytes("one"));
    const second = createFileArchiveStore({ directory: root });
    await assert.rejects(second.get("t/x"), (error: unknown) => isAppError(error) && error.code === "failed_precondition");
    await store.close?.();
    const third = createFileArchiveStore({ directory: root });
    assert.equal(text(await third.get("t/x")), "one");
    await third.close?.();
  });

  it("a torn last journal line (a crash mid-append, never acknowledged) is cut off; the lines before it replay", async () => {
    const store = createFileArchiveStore({ directory: root });
    await store.put("t/x", bytes("acknowledged"));
    const [log] = await journalFiles(root);
    await writeFile(join(root, ".journal", log ?? ""), '{"p":"t/y","b":"dG9y', { flag: "a" });
    const copy = await crashed(root, "t");
    await Promise.resolve(store.close?.()).catch(() => undefined);
    const reopened = createFileArchiveStore({ directory: copy });
    assert.equal(text(await reopened.get("t/x")), "acknowledged");
    assert.equal(await reopened.exists("t/y"), false);
    await reopened.close?.();
  });

  it("close checkpoints: every object fsynced as a file and no journal line left", async () => {
    const store = createFileArchiveStore({ directory: root });
    await Promise.all(Array.from({ length: 50 }, (_, index) => store.put(`t/s${String(index % 5)}/k${String(index)}`, bytes(`body ${String(index)}`))));
    await store.close?.();
    for (const name of await journalFiles(root)) assert.equal((await stat(join(root, ".journal", name))).size, 0);
    const reopened = createFileArchiveStore({ directory: root });
    const keys: string[] = [];
    for await (const key of reopened.list("t/")) keys.push(key);
    assert.equal(keys.length, 50);
    assert.equal(text(await reopened.get("t/s2/k7")), "body 7");
    await reopened.close?.();
  });

  it("a large body is fsynced as a file, and no older journal line replays over it", async () => {
    const store = createFileArchiveStore({ directory: root });
    await store.put("t/big", bytes("small first"));
    const large = new Uint8Array(JOURNAL_MAX_BODY_BYTES + 10).fill(7);
    await store.put("t/big", large);
    // A crash now: the large body is durable on its own, and no journal line may bring back the small one.
    const copy = await crashed(root, "nothing");
    await store.close?.();
    const reopened = createFileArchiveStore({ directory: copy });
    assert.equal((await reopened.get("t/big")).byteLength, large.byteLength);
    await reopened.close?.();
  });

  it("concurrent large puts over a journaled key checkpoint one after another, and all succeed", async () => {
    const store = createFileArchiveStore({ directory: root });
    await store.put("t/k", bytes("small"));
    const large = (fill: number) => new Uint8Array(JOURNAL_MAX_BODY_BYTES + 1).fill(fill);
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, index) => store.put("t/k", large(index))));
    assert.deepEqual(new Set(outcomes), new Set(["created"]));
    assert.equal((await store.get("t/k")).byteLength, JOURNAL_MAX_BODY_BYTES + 1);
    await store.close?.();
  });

  it("a failing fdatasync of the journal rejects the put as unavailable, leaves no object, and later puts succeed", async () => {
    const store = createFileArchiveStore({ directory: root });
    await store.put("t/warm", bytes("x"));
    const handle = await open(join(root, "probe"), "w");
    const prototype = Object.getPrototypeOf(handle) as { datasync: () => Promise<void> };
    await handle.close();
    await unlink(join(root, "probe"));
    const failing = mock.method(prototype, "datasync", () => Promise.reject(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" })));
    await assert.rejects(
      store.put("t/blob", bytes("never durable"), { ifAbsent: true }),
      (error: unknown) => isAppError(error) && error.code === "unavailable",
    );
    assert.equal(await store.exists("t/blob"), false);
    failing.mock.restore();
    assert.equal(await store.put("t/blob", bytes("durable"), { ifAbsent: true }), "created");
    assert.equal(text(await store.get("t/blob")), "durable");
    // The failed write was cut off the journal: a replay brings back only what was acknowledged.
    const copy = await crashed(root, "t");
    await store.close?.();
    const reopened = createFileArchiveStore({ directory: copy });
    assert.equal(text(await reopened.get("t/blob")), "durable");
    assert.equal(text(await reopened.get("t/warm")), "x");
    await reopened.close?.();
  });

  it("a creator that finds an object another creator is still making durable answers exists only once it is durable", async () => {
    const store = createFileArchiveStore({ directory: root });
    await store.put("t/warm", bytes("x"));
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.put("t/same", bytes("content"), { ifAbsent: true })));
    assert.equal(outcomes.filter((outcome) => outcome === "created").length, 1);
    assert.equal(outcomes.filter((outcome) => outcome === "exists").length, 9);
    const journal = (await readFile(join(root, ".journal", (await journalFiles(root))[0] ?? ""), "utf8"))
      .split("\n")
      .filter((line) => line.includes('"t/same"'));
    assert.equal(journal.length, 1);
    await store.close?.();
  });
});
