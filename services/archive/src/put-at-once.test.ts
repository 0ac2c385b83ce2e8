import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  blobKey,
  blobRefKey,
  createLmdbArchiveStore,
  expiryEntryKey,
  lineIndexKey,
  revisionOf,
  sessionEntryKey,
  type ArchiveStore,
} from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { putResult } from "./put-result.js";
import { putStream, putTwiceBlobDeleted } from "./testing/put-stream.js";
import { loadRecord } from "./result-record.js";
import { SMALL_CONTENT_BYTES } from "./store-content.js";

const NOW_MS = 1_700_000_000_000;
const RETENTION_MS = 86_400_000;
const encoder = new TextEncoder();

/** The LMDB store, counting the calls a Put makes of it. */
function counted(store: ArchiveStore): { store: ArchiveStore; calls: { put: number; putAll: number } } {
  const calls = { put: 0, putAll: 0 };
  const putAll = store.putAll?.bind(store);
  return {
    calls,
    store: {
      ...store,
      stats: store.stats,
      put: (...args) => {
        calls.put++;
        return store.put(...args);
      },
      ...(putAll === undefined
        ? {}
        : {
            putAll: (...args: Parameters<typeof putAll>) => {
              calls.putAll++;
              return putAll(...args);
            },
          }),
    },
  };
}

describe("putResult() on a store with putAll (LMDB)", () => {
  let dir: string;
  let lmdb: ArchiveStore;
  let store: ArchiveStore;
  let calls: { put: number; putAll: number };
  const put = (header: Parameters<typeof putStream>[0], text: string) =>
    putResult(putStream(header, text, { resultId: "r_once0000000000000000" }), {
      store,
      tenant: "t",
      nowMs: NOW_MS,
      retentionMs: RETENTION_MS,
      maxResultBytes: 4 << 20,
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-put-once-"));
    lmdb = createLmdbArchiveStore({ directory: dir });
    ({ store, calls } = counted(lmdb));
  });
  after(async () => {
    await lmdb.close?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("stores a small result's entries, blob, line index and record in one step", async () => {
    calls.put = calls.putAll = 0;
    const text = "alpha\nbeta\ngamma\n";
    const revision = revisionOf(encoder.encode(text));
    const sha = revision.slice("sha256:".length);
    const { record, deduplicated } = await put({ resultId: "r_once0000000000000001" }, text);
    assert.deepEqual(calls, { put: 0, putAll: 1 });
    assert.equal(deduplicated, false);
    assert.equal(record.lineCount, 3);
    assert.deepEqual(await loadRecord(store, "t", "r_once0000000000000001", NOW_MS), record);
    assert.equal(new TextDecoder().decode(await store.get(blobKey("t", sha))), text);
    assert.equal((JSON.parse(new TextDecoder().decode(await store.get(lineIndexKey("t", sha)))) as { lineCount: number }).lineCount, 3);
    for (const key of [
      blobRefKey("t", sha, "r_once0000000000000001"),
      sessionEntryKey("t", "s", "r_once0000000000000001"),
      expiryEntryKey("t", NOW_MS + RETENTION_MS, "r_once0000000000000001"),
    ])
      assert.equal(await store.exists(key), true, key);
  });

  it("stores content once: a second result of it is deduplicated, and the same result again answers the stored record", async () => {
    const text = "shared content\n";
    const first = await put({ resultId: "r_once0000000000000002", sessionId: "a" }, text);
    const second = await put({ resultId: "r_once0000000000000003", sessionId: "b" }, text);
    assert.equal(first.deduplicated, false);
    assert.equal(second.deduplicated, true);
    const again = await putResult(putStream({ resultId: "r_once0000000000000002", sessionId: "a" }, text, { resultId: "r_once0000000000000002" }), {
      store,
      tenant: "t",
      nowMs: NOW_MS + 5000,
      retentionMs: RETENTION_MS,
      maxResultBytes: 1 << 20,
    });
    assert.equal(again.record.createdAtMs, NOW_MS, "the record first stored");
  });

  it("refuses a result id that names other content, and writes nothing for content that fails its checks", async () => {
    await put({ resultId: "r_once0000000000000004" }, "one\n");
    await assert.rejects(put({ resultId: "r_once0000000000000004" }, "two\n"), (error) => isAppError(error) && error.code === "already_exists");
    const before = await countKeys(store);
    await assert.rejects(
      put({ resultId: "r_once0000000000000005", structuredStartByte: 99 }, "short\n"),
      (error) => isAppError(error) && error.code === "invalid_argument",
    );
    await assert.rejects(
      put({ resultId: "r_once0000000000000006", revision: `sha256:${"0".repeat(64)}` }, "mismatch\n"),
      (error) => isAppError(error) && error.code === "invalid_argument",
    );
    assert.equal(await countKeys(store), before, "nothing written");
  });

  it("fails a Put of stored content with aborted (retryable) when a concurrent delete removes the blob after the Put relied on it", async () => {
    const second = await putTwiceBlobDeleted(store, "r_race100000000000000", NOW_MS);
    await assert.rejects(second, (error: unknown) => isAppError(error) && error.code === "aborted");
  });

  it("tells the caller once the store holds a small result's write, and a larger one's before its first write", async () => {
    for (const [text, resultId, atAccept] of [
      ["small\n", "r_once0000000000000008", { put: 0, putAll: 1 }],
      ["x".repeat(SMALL_CONTENT_BYTES) + "\n", "r_once0000000000000009", { put: 0, putAll: 0 }],
    ] as const) {
      calls.put = calls.putAll = 0;
      const told: Array<{ put: number; putAll: number } | "resolved"> = [];
      await putResult(putStream({ resultId }, text, { resultId }), {
        store,
        tenant: "t",
        nowMs: NOW_MS,
        retentionMs: RETENTION_MS,
        maxResultBytes: 4 << 20,
        onAccepted: () => told.push({ ...calls }),
      }).then(() => told.push("resolved"));
      assert.deepEqual(told, [atAccept, "resolved"], `${String(text.length)} bytes`);
    }
  });

  it("takes a result over the small size object by object", async () => {
    calls.put = calls.putAll = 0;
    const text = "x".repeat(SMALL_CONTENT_BYTES) + "\n";
    const { record } = await put({ resultId: "r_once0000000000000007" }, text);
    assert.equal(calls.putAll, 0);
    assert.ok(calls.put >= 4);
    assert.equal(record.sizeBytes, text.length);
  });
});

async function countKeys(store: ArchiveStore): Promise<number> {
  let count = 0;
  for await (const _key of store.list("")) count++;
  return count;
}
