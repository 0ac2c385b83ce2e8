import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { blobKey, createFileArchiveStore, recordKey, revisionOf, type ArchiveStore } from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { ReadRequestSchema, SearchRequestSchema, StatRequestSchema } from "@loupe/proto";
import { createArchiveHandlers } from "./archive-handlers.js";
import { deleteResults } from "./delete-results.js";
import { createLineIndexCache } from "./line-index-cache.js";
import { encodeRecordObject, parseRecordObject } from "./record-object.js";
import { putResult } from "./put-result.js";
import { INLINE_CONTENT_BYTES } from "./store-content.js";
import { sweepExpired } from "./sweep-expired.js";
import { putStream } from "./testing/put-stream.js";
import { roundsStore } from "./testing/rounds-store.js";

const NOW_MS = 1_700_000_000_000;
const DAY_MS = 86_400_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const id = (name: string): string => `r_${name.padEnd(16, "0")}`;

/** Every key the store holds, sorted. */
async function allKeys(store: ArchiveStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list("v1/")) keys.push(key);
  return keys.sort();
}

/** A text of `lines` numbered lines with some non-ASCII, about 40 bytes a line. */
function numbered(lines: number, tag: string): string {
  return Array.from({ length: lines }, (_, index) => `${tag} line ${String(index + 1).padStart(5, "0")} — é ${"x".repeat(index % 13)}\n`).join("");
}

describe("putResult() keeps a small content in its record on a store without putAll", () => {
  let dir: string;
  let files: ArchiveStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-inline-"));
    files = createFileArchiveStore({ directory: dir });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const put = (store: ArchiveStore, tenant: string, resultId: string, text: string, options: { nowMs?: number; inlineMaxBytes?: number } = {}) =>
    putResult(putStream({ resultId, sessionId: "s1" }, text, { resultId }), {
      store,
      tenant,
      nowMs: options.nowMs ?? NOW_MS,
      retentionMs: 7 * DAY_MS,
      maxResultBytes: 1 << 20,
      ...(options.inlineMaxBytes === undefined ? {} : { inlineMaxBytes: options.inlineMaxBytes }),
    });

  it("writes the session and expiry entries, then the record with the content: three objects in two rounds, no blob, line index or marker", async () => {
    const { store, rounds } = roundsStore(files);
    const text = numbered(200, "inline");
    const { record, deduplicated } = await put(store, "t1", id("rounds"), text);
    assert.equal(deduplicated, false);
    assert.equal(record.lineCount, 200);
    assert.equal(rounds.length, 2);
    assert.equal(rounds[0]?.length, 2, "the session and expiry entries, no reference marker");
    assert.deepEqual(rounds[1], [recordKey("t1", id("rounds"))]);
    const keys = await allKeys(files);
    assert.deepEqual(
      keys.filter((key) => key.startsWith("v1/t1/")),
      [...rounds[0], ...rounds[1]].sort(),
    );
    const stored = parseRecordObject(await files.get(recordKey("t1", id("rounds"))));
    assert.equal(stored.record.inline, true);
    assert.equal(decoder.decode(stored.content), text);
  });

  it("acknowledges only once its entries and record are durable: one sync of all three keys on a store that defers them", async () => {
    const events: string[] = [];
    const deferring: ArchiveStore = {
      ...files,
      put: async (key, body, options) => {
        events.push(`${options?.deferSync === true ? "place" : "write"} ${key}`);
        return files.put(key, body, options);
      },
      sync: async (keys, options) => {
        await files.sync?.(keys, options);
        events.push(`sync ${[...keys].sort().join(" ")}`);
      },
    };
    await put(deferring, "t8", id("durable"), "synced\n");
    events.push("acknowledged");
    const placed = events.filter((event) => event.startsWith("place ")).map((event) => event.slice("place ".length));
    assert.equal(placed.length, 3, events.join("\n"));
    assert.ok(placed.includes(recordKey("t8", id("durable"))));
    assert.deepEqual(events.slice(-2), [`sync ${placed.sort().join(" ")}`, "acknowledged"]);
  });

  it("keeps a content over INLINE_CONTENT_BYTES, and every content with inlineMaxBytes 0, in the tenant's shared blob", async () => {
    const { store, rounds } = roundsStore(files);
    const large = numbered(Math.ceil(INLINE_CONTENT_BYTES / 30), "large");
    assert.ok(encoder.encode(large).byteLength > INLINE_CONTENT_BYTES);
    await put(store, "t2", id("large"), large);
    await put(store, "t2", id("small"), "small\n", { inlineMaxBytes: 0 });
    for (const text of [large, "small\n"]) assert.ok(await files.exists(blobKey("t2", revisionOf(encoder.encode(text)).slice("sha256:".length))));
    assert.equal(rounds.at(-2)?.length, 3, "a blob's Put writes its reference marker with the entries");
  });

  it("answers Read, Search and Stat of an inline result as of the same content in a blob", async () => {
    const deps = { store: files, indexCache: createLineIndexCache(), maxResultBytes: 1 << 20, retentionMsFor: () => 7 * DAY_MS, now: () => NOW_MS };
    const handlers = createArchiveHandlers(deps);
    const context = { metadata: { "x-loupe-tenant": "t3" }, signal: new AbortController().signal, deadlineMs: undefined };
    const text = numbered(900, "same") + "a last line without a newline";
    await put(files, "t3", id("inline"), text);
    await put(files, "t3", id("blob"), text, { inlineMaxBytes: 0 });
    const reads = [
      { startLine: 1, endLine: 3 },
      { startLine: 450, endLine: 460 },
      { startLine: 899 },
      { startByte: 1000, endByte: 1003, withStartLine: true },
      { startLine: 10, endLine: 800, maxBytes: 500 },
    ];
    for (const read of reads) {
      const [inline, blob] = await Promise.all(
        [id("inline"), id("blob")].map((resultId) => handlers.read(create(ReadRequestSchema, { resultId, ...read }), context)),
      );
      const { record: inlineRecord, ...inlineRange } = inline!;
      const { record: blobRecord, ...blobRange } = blob!;
      assert.deepEqual(inlineRange, blobRange, JSON.stringify(read));
      assert.deepEqual({ ...inlineRecord, resultId: "" }, { ...blobRecord, resultId: "" });
    }
    for (const search of [
      { pattern: "line 0044[0-9]", contextLines: 2 },
      { pattern: "(?i)LAST LINE" },
      { pattern: "line 00[0-9]", maxMatches: 5, fromLine: 30 },
    ]) {
      const [inline, blob] = await Promise.all(
        [id("inline"), id("blob")].map((resultId) => handlers.search(create(SearchRequestSchema, { resultId, ...search }), context)),
      );
      assert.deepEqual(inline?.matches, blob?.matches, search.pattern);
      assert.equal(inline?.nextLine, blob?.nextLine);
    }
    const stat = await handlers.stat(create(StatRequestSchema, { resultId: id("inline") }), context);
    assert.equal(Number(stat.record?.sizeBytes), encoder.encode(text).byteLength);
    // LOUPE_ARCHIVE_INLINE_BYTES=0 (inlineMaxBytes): the handlers keep a small content in a blob, as archives before did.
    const blobOnly = createArchiveHandlers({ ...deps, inlineMaxBytes: 0 });
    const bytes = encoder.encode("kept in a blob\n");
    async function* requests() {
      yield { message: { case: "header" as const, value: { resultId: id("noinline"), revision: revisionOf(bytes), sessionId: "s", sizeBytes: 15n } } } as never;
      yield { message: { case: "chunk" as const, value: bytes } } as never;
    }
    await blobOnly.put(requests(), context);
    assert.ok(await files.exists(blobKey("t3", revisionOf(bytes).slice("sha256:".length))));
  });

  it("deletes an inline result whole and leaves the blob of another result of the same content", async () => {
    const text = numbered(50, "shared");
    await put(files, "t4", id("blob"), text, { inlineMaxBytes: 0 });
    await put(files, "t4", id("inline"), text);
    const before = await allKeys(files);
    assert.deepEqual(await deleteResults(files, "t4", { kind: "result", resultId: id("inline") }, NOW_MS), { resultsDeleted: 1, blobsDeleted: 0 });
    const after = await allKeys(files);
    assert.equal(before.length - after.length, 3, "its record and its two entries");
    assert.ok(!after.some((key) => key.includes(id("inline"))));
    assert.deepEqual(await deleteResults(files, "t4", { kind: "session", sessionId: "s1" }, NOW_MS), { resultsDeleted: 1, blobsDeleted: 1 });
    assert.deepEqual(
      (await allKeys(files)).filter((key) => key.startsWith("v1/t4/")),
      [],
    );
  });

  it("removes the blob a Put of the same id stored after inline storage was turned off, with the inline record", async () => {
    const text = numbered(20, "flipped");
    const blob = blobKey("t7", revisionOf(encoder.encode(text)).slice("sha256:".length));
    await put(files, "t7", id("flip"), text);
    const again = await put(files, "t7", id("flip"), text, { inlineMaxBytes: 0 });
    assert.equal(again.record.inline, true, "the stored record answers");
    assert.ok(await files.exists(blob));
    assert.deepEqual(await deleteResults(files, "t7", { kind: "result", resultId: id("flip") }, NOW_MS), { resultsDeleted: 1, blobsDeleted: 1 });
    assert.deepEqual(
      (await allKeys(files)).filter((key) => key.startsWith("v1/t7/")),
      [],
    );
  });

  it("sweeps an expired inline result, and the entries of one whose record a crash never wrote", async () => {
    // A store of its own: the sweep goes over every tenant.
    const own = await mkdtemp(join(tmpdir(), "loupe-inline-sweep-"));
    const files = createFileArchiveStore({ directory: own });
    await put(files, "t5", id("expired"), "gone in a week\n");
    // A Put that wrote its entries and failed before its record: its content never reached the store.
    const failing: ArchiveStore = {
      ...files,
      put: (key, body, options) => (key === recordKey("t5", id("crashed")) ? Promise.reject(new Error("crash")) : files.put(key, body, options)),
    };
    await assert.rejects(put(failing, "t5", id("crashed"), "never saved\n"));
    assert.equal((await allKeys(files)).filter((key) => key.startsWith("v1/t5/")).length, 5);
    const outcome = await sweepExpired(files, NOW_MS + 8 * DAY_MS);
    assert.deepEqual(outcome, { resultsDeleted: 1, blobsDeleted: 0, entriesRemoved: 1 });
    assert.deepEqual(
      (await allKeys(files)).filter((key) => key.startsWith("v1/t5/")),
      [],
    );
    await rm(own, { recursive: true, force: true });
  });

  it("replaces a torn inline record an unacknowledged Put left, and answers the stored record to the same Put again", async () => {
    const text = numbered(30, "torn");
    const sha = revisionOf(encoder.encode(text)).slice("sha256:".length);
    const whole = parseRecordObject(await files.get(recordKey("t1", id("rounds")))).record;
    // What a power loss can leave of a record placed but never synced: its JSON, and only part of its content.
    const torn = encoder.encode(`${JSON.stringify({ ...whole, resultId: id("torn"), revision: `sha256:${sha}` })}\n${text.slice(0, 40)}`);
    await files.put(recordKey("t6", id("torn")), torn);
    assert.throws(() => parseRecordObject(torn), SyntaxError);
    const first = await put(files, "t6", id("torn"), text);
    assert.equal(first.record.lineCount, 30);
    assert.equal(decoder.decode(parseRecordObject(await files.get(recordKey("t6", id("torn")))).content), text);
    const again = await put(files, "t6", id("torn"), text, { nowMs: NOW_MS + 1000 });
    assert.equal(again.record.createdAtMs, first.record.createdAtMs, "the stored record answers");
    await assert.rejects(put(files, "t6", id("torn"), "other content\n"), (error: unknown) => isAppError(error) && error.code === "already_exists");
  });

  it("reads a record object of either form and refuses what is neither", () => {
    const record = {
      resultId: id("x"),
      revision: "sha256:" + "a".repeat(64),
      sessionId: "s",
      source: "",
      toolName: "",
      kind: 0,
      path: "",
      lineCount: 1,
      createdAtMs: 1,
      expiresAtMs: 2,
    };
    assert.equal(parseRecordObject(encoder.encode(JSON.stringify({ ...record, sizeBytes: 3 }))).content, undefined);
    const inline = parseRecordObject(encoder.encode(`${JSON.stringify({ ...record, sizeBytes: 3, inline: true })}\na\nb`));
    assert.equal(decoder.decode(inline.content), "a\nb");
    assert.throws(() => parseRecordObject(encoder.encode(`${JSON.stringify({ ...record, sizeBytes: 3 })}\nabc`)), SyntaxError);
    assert.throws(() => parseRecordObject(encoder.encode(JSON.stringify({ ...record, sizeBytes: 3, inline: true }))), SyntaxError);
    // Writing, the mark follows the bytes: content given marks the record inline, none leaves it plain.
    const written = parseRecordObject(encodeRecordObject({ ...record, sizeBytes: 3 }, encoder.encode("a\nb")));
    assert.deepEqual([written.record.inline, decoder.decode(written.content)], [true, "a\nb"]);
    const plain = parseRecordObject(encodeRecordObject({ ...record, sizeBytes: 3, inline: true }));
    assert.deepEqual([plain.record.inline, plain.content], [undefined, undefined]);
  });
});
