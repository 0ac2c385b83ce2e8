import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { blobKey, createFileArchiveStore, lineIndexKey, recordKey, revisionOf, type ArchiveStore } from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { MAX_READ_SCOPE_CHARS, putResult } from "./put-result.js";
import { putStream, putTwiceBlobDeleted } from "./testing/put-stream.js";
import { roundsStore } from "./testing/rounds-store.js";
import { loadRecord, toResultRecord } from "./result-record.js";

const NOW_MS = 1_700_000_000_000;
const encoder = new TextEncoder();

describe("putResult()", () => {
  let dir: string;
  let store: ArchiveStore;
  const put = (header: Parameters<typeof putStream>[0], text: string) =>
    putResult(putStream(header, text), {
      store,
      tenant: "t",
      nowMs: NOW_MS,
      retentionMs: 86_400_000,
      maxResultBytes: 1 << 20,
      inlineMaxBytes: 0,
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-put-"));
    store = createFileArchiveStore({ directory: dir });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("keeps a file read's path and read scope with the record", async () => {
    await put({ resultId: "r_scoped00000000000000", path: "src/parser.ts", readScope: "sed -n '401,800p' src/parser.ts" }, "line 401\nline 402\n");
    const record = await loadRecord(store, "t", "r_scoped00000000000000", NOW_MS);
    assert.equal(record.readScope, "sed -n '401,800p' src/parser.ts");
    assert.equal(toResultRecord(record).readScope, "sed -n '401,800p' src/parser.ts");
    await put({ resultId: "r_whole000000000000000", path: "src/parser.ts" }, "whole file\n");
    const whole = await loadRecord(store, "t", "r_whole000000000000000", NOW_MS);
    assert.equal(whole.readScope, undefined, "a whole-file read stores no scope");
    assert.equal(toResultRecord(whole).readScope, "");
  });

  it("writes again a torn blob, line index or record an unacknowledged Put left behind (a crash before it was durable)", async () => {
    const text = "alpha\nbeta\ngamma\n";
    const sha = revisionOf(encoder.encode(text)).slice("sha256:".length);
    // What a power loss can leave of placed but never synced objects: files of the right names with wrong bytes.
    await store.put(blobKey("t", sha), encoder.encode("alp\0\0\0"));
    await store.put(lineIndexKey("t", sha), encoder.encode('{"sizeBy'));
    await store.put(recordKey("t", "r_torn00000000000000000"), encoder.encode('{"resultId":"r_to'));
    const { record } = await put({ resultId: "r_torn00000000000000000" }, text);
    assert.equal(record.lineCount, 3);
    assert.equal(new TextDecoder().decode(await store.get(blobKey("t", sha))), text);
    assert.equal((JSON.parse(new TextDecoder().decode(await store.get(lineIndexKey("t", sha)))) as { lineCount: number }).lineCount, 3);
    assert.equal((await loadRecord(store, "t", "r_torn00000000000000000", NOW_MS)).sizeBytes, text.length);
  });

  it("on a store whose every put is durable (no sync, like S3), a Put of stored content reads nothing back", async () => {
    let gets = 0;
    const durable: ArchiveStore = {
      ...store,
      get: (key, options) => {
        gets += 1;
        return store.get(key, options);
      },
    };
    delete (durable as { sync?: unknown }).sync;
    const putOn = (resultId: string) =>
      putResult(putStream({ resultId }, "same content\n"), {
        store: durable,
        tenant: "t",
        nowMs: NOW_MS,
        retentionMs: 86_400_000,
        maxResultBytes: 1 << 20,
        inlineMaxBytes: 0,
      });
    await putOn("r_durable0000000000001");
    const { deduplicated } = await putOn("r_durable0000000000002");
    assert.equal(deduplicated, true);
    assert.equal(gets, 0);
  });

  it("stores a small content's blob, line index and record in one round after the index entries (two waits on S3), a large one's record after its content", async () => {
    // Each round is the set of puts in flight together.
    const { store: durable, rounds } = roundsStore(store);
    const putOn = (resultId: string, text: string) =>
      putResult(putStream({ resultId }, text), {
        store: durable,
        tenant: "t2",
        nowMs: NOW_MS,
        retentionMs: 86_400_000,
        maxResultBytes: 1 << 20,
        inlineMaxBytes: 0,
      });
    const small = "small content\n";
    const sha = revisionOf(encoder.encode(small)).slice("sha256:".length);
    await putOn("r_rounds00000000000001", small);
    assert.equal(rounds.length, 2);
    assert.equal(rounds[0]?.length, 3, "the session entry, reference marker and expiry entry (no tenant marker)");
    assert.deepEqual(rounds[1]?.sort(), [blobKey("t2", sha), lineIndexKey("t2", sha), recordKey("t2", "r_rounds00000000000001")].sort());
    rounds.length = 0;
    await putOn("r_rounds00000000000002", "large line\n".repeat(30_000));
    assert.deepEqual(rounds.at(-1), [recordKey("t2", "r_rounds00000000000002")], "a streamed content's record waits for its line index");
  });

  it("fails a Put of stored content with aborted (retryable) when a concurrent delete removes the blob after the Put relied on it", async () => {
    const second = await putTwiceBlobDeleted(store, "r_race000000000000000", NOW_MS);
    await assert.rejects(second, (error: unknown) => isAppError(error) && error.code === "aborted");
  });

  it("refuses a malformed header before it stores anything", async () => {
    const invalid = (error: unknown) => isAppError(error) && error.code === "invalid_argument";
    await assert.rejects(put({ resultId: "nope" }, "x\n"), invalid);
    await assert.rejects(put({ revision: "sha256:beef" }, "x\n"), invalid);
    await assert.rejects(
      put({ resultId: "r_longscope00000000000", readScope: "x".repeat(MAX_READ_SCOPE_CHARS + 1) }, "x\n"),
      (error: unknown) => invalid(error) && String(error).includes("read_scope too long"),
    );
    await assert.rejects(loadRecord(store, "t", "r_longscope00000000000", NOW_MS), (error: unknown) => isAppError(error) && error.code === "not_found");
  });
});
