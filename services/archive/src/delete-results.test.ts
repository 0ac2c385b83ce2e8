import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import {
  blobKey,
  blobRefKey,
  createFileArchiveStore,
  createLmdbArchiveStore,
  lineIndexKey,
  revisionOf,
  tenantMarkerKey,
  type ArchiveStore,
} from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { DeleteRequestSchema, type PutRequest } from "@loupe/proto";
import { deleteResults, deleteTargetFrom } from "./delete-results.js";
import { putResult } from "./put-result.js";
import { STALE_MARKER_GRACE_MS } from "./blob-references.js";
import { resultEntryObjects } from "./result-entries.js";
import { loadRecord } from "./result-record.js";

const NOW_MS = 1_700_000_000_000;
const DAY_MS = 86_400_000;
const encoder = new TextEncoder();

/** A Put stream of one result. */
async function* putStream(resultId: string, sessionId: string, text: string): AsyncIterable<PutRequest> {
  const bytes = encoder.encode(text);
  yield { message: { case: "header", value: { resultId, sessionId, revision: revisionOf(bytes), sizeBytes: BigInt(bytes.byteLength) } } } as PutRequest;
  yield { message: { case: "chunk", value: bytes } } as PutRequest;
}

/** Saves one result as the archive's Put does with a content over INLINE_CONTENT_BYTES: in a blob the tenant's results share. */
function save(store: ArchiveStore, tenant: string, resultId: string, sessionId: string, text: string, nowMs = NOW_MS) {
  return putResult(putStream(resultId, sessionId, text), { store, tenant, nowMs, retentionMs: 7 * DAY_MS, maxResultBytes: 1 << 20, inlineMaxBytes: 0 });
}

/** Every key the store holds, sorted. */
async function allKeys(store: ArchiveStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list("")) keys.push(key);
  return keys;
}

const id = (name: string): string => `r_${name.padEnd(16, "0")}`;
const sha = (text: string): string => revisionOf(encoder.encode(text)).slice("sha256:".length);
const isNotFound = (error: unknown) => isAppError(error) && error.code === "not_found";

describe("deleteResults()", () => {
  let directory: string;
  let store: ArchiveStore;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-delete-"));
    store = createFileArchiveStore({ directory });
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it("keeps a blob another result uses, and removes it with its line index once the last user goes", async () => {
    await save(store, "local", id("a"), "s1", "shared\ncontent\n");
    await save(store, "local", id("b"), "s2", "shared\ncontent\n");
    const shared = sha("shared\ncontent\n");

    assert.deepEqual(await deleteResults(store, "local", { kind: "result", resultId: id("a") }, NOW_MS), { resultsDeleted: 1, blobsDeleted: 0 });
    await assert.rejects(loadRecord(store, "local", id("a"), NOW_MS), isNotFound);
    assert.equal((await loadRecord(store, "local", id("b"), NOW_MS)).resultId, id("b"));
    assert.ok(await store.exists(blobKey("local", shared)));
    assert.ok(await store.exists(lineIndexKey("local", shared)));

    assert.deepEqual(await deleteResults(store, "local", { kind: "result", resultId: id("b") }, NOW_MS), { resultsDeleted: 1, blobsDeleted: 1 });
    assert.equal(await store.exists(blobKey("local", shared)), false);
    assert.equal(await store.exists(lineIndexKey("local", shared)), false);
    assert.deepEqual(await allKeys(store), []);
  });

  it("counts nothing for a result that is not there, so a delete can be repeated", async () => {
    assert.deepEqual(await deleteResults(store, "local", { kind: "result", resultId: id("missing") }, NOW_MS), { resultsDeleted: 0, blobsDeleted: 0 });
  });

  it("deletes one session's results and leaves other sessions alone", async () => {
    await save(store, "local", id("a"), "s1", "one\n");
    await save(store, "local", id("b"), "s1", "two\n");
    await save(store, "local", id("c"), "s2", "two\n");
    await save(store, "local", id("d"), "s2", "three\n");

    assert.deepEqual(await deleteResults(store, "local", { kind: "session", sessionId: "s1" }, NOW_MS), { resultsDeleted: 2, blobsDeleted: 1 });
    await assert.rejects(loadRecord(store, "local", id("a"), NOW_MS), isNotFound);
    await assert.rejects(loadRecord(store, "local", id("b"), NOW_MS), isNotFound);
    assert.equal(await store.exists(blobKey("local", sha("one\n"))), false);
    assert.ok(await store.exists(blobKey("local", sha("two\n"))), "still used by c");
    assert.equal((await loadRecord(store, "local", id("c"), NOW_MS)).sessionId, "s2");
    assert.ok(!(await allKeys(store)).some((key) => key.includes("/sessions/s1/")));
  });

  it("deletes a whole tenant and nothing of another", async () => {
    await save(store, "local", id("a"), "s1", "one\n");
    await save(store, "local", id("b"), "s2", "one\n");
    await save(store, "local", id("c"), "s2", "two\n");
    await save(store, "other", id("a"), "s1", "one\n");
    const before = (await allKeys(store)).filter((key) => key.includes("/other"));

    assert.deepEqual(await deleteResults(store, "local", { kind: "tenant" }, NOW_MS), { resultsDeleted: 3, blobsDeleted: 2 });
    assert.deepEqual(await allKeys(store), before);
    assert.equal((await loadRecord(store, "other", id("a"), NOW_MS)).resultId, id("a"));
  });

  it("deletes the tenant marker an earlier archive wrote with a tenant's results", async () => {
    await save(store, "local", id("a"), "s1", "one\n");
    await store.put(tenantMarkerKey("local"), new Uint8Array(0));
    await store.put(tenantMarkerKey("other"), new Uint8Array(0));
    assert.deepEqual(await deleteResults(store, "local", { kind: "tenant" }, NOW_MS), { resultsDeleted: 1, blobsDeleted: 1 });
    assert.deepEqual(await allKeys(store), [tenantMarkerKey("other")]);
  });

  it("lets the same content be saved again after its blob was deleted", async () => {
    await save(store, "local", id("a"), "s1", "again\n");
    await deleteResults(store, "local", { kind: "result", resultId: id("a") }, NOW_MS);
    const { deduplicated } = await save(store, "local", id("b"), "s1", "again\n");
    assert.equal(deduplicated, false);
    assert.ok(await store.exists(blobKey("local", sha("again\n"))));
    assert.ok(await store.exists(lineIndexKey("local", sha("again\n"))));
  });

  describe("a reference marker whose Put crashed between its entries", () => {
    // What a crash can leave of a Put whose entries go out together: the marker stored, the expiry entry
    // (which would have swept it) and the record not.
    const leftOver = async (target: ArchiveStore, resultId: string, text: string, putAtMs: number, body?: Uint8Array) => {
      const [marker] = resultEntryObjects("local", {
        resultId,
        sessionId: "s0",
        revision: revisionOf(encoder.encode(text)),
        expiresAtMs: putAtMs + 7 * DAY_MS,
      });
      await target.put(marker.key, body ?? marker.body);
      return marker.key;
    };

    for (const [name, open] of [
      ["files", (dir: string) => createFileArchiveStore({ directory: join(dir, "files") })],
      ["LMDB", (dir: string) => createLmdbArchiveStore({ directory: join(dir, "lmdb") })],
    ] as const) {
      it(`does not keep the blob of a later result past that marker's expiry (${name})`, async () => {
        const target = open(directory);
        try {
          const marker = await leftOver(target, id("crashed"), "kept too long\n", NOW_MS);
          await save(target, "local", id("later"), "s1", "kept too long\n", NOW_MS + DAY_MS);
          const after = NOW_MS + 7 * DAY_MS + STALE_MARKER_GRACE_MS;
          assert.deepEqual(await deleteResults(target, "local", { kind: "result", resultId: id("later") }, after), { resultsDeleted: 1, blobsDeleted: 1 });
          assert.equal(await target.exists(marker), false, "the left-over marker goes with the blob");
          assert.deepEqual(await allKeys(target), []);
        } finally {
          await target.close?.();
        }
      });
    }

    it("reads at most 16 other markers: with more it keeps the blob unread, however stale they are", async () => {
      const after = NOW_MS + 7 * DAY_MS + STALE_MARKER_GRACE_MS;
      for (const [count, blobsDeleted] of [
        [16, 1],
        [17, 0],
      ] as const) {
        const text = `shared by ${String(count)}\n`;
        for (let index = 0; index < count; index++) await leftOver(store, id(`c${String(count)}x${String(index)}y`), text, NOW_MS);
        await save(store, "local", id(`live${String(count)}`), "s1", text, NOW_MS);
        assert.deepEqual(await deleteResults(store, "local", { kind: "result", resultId: id(`live${String(count)}`) }, after), {
          resultsDeleted: 1,
          blobsDeleted,
        });
        assert.equal(await store.exists(blobKey("local", sha(text))), blobsDeleted === 0);
      }
    });

    it("keeps the blob while the marker's expiry (and a grace) has not passed: its Put may still be running", async () => {
      await leftOver(store, id("running"), "in flight\n", NOW_MS);
      await save(store, "local", id("other"), "s1", "in flight\n", NOW_MS);
      const beforeGrace = NOW_MS + 7 * DAY_MS + STALE_MARKER_GRACE_MS - 1;
      assert.deepEqual(await deleteResults(store, "local", { kind: "result", resultId: id("other") }, beforeGrace), { resultsDeleted: 1, blobsDeleted: 0 });
      assert.ok(await store.exists(blobKey("local", sha("in flight\n"))));
    });

    it("keeps the blob while the marker's result has a record, expired or not", async () => {
      await save(store, "local", id("first"), "s1", "recorded\n", NOW_MS);
      await save(store, "local", id("second"), "s1", "recorded\n", NOW_MS + DAY_MS);
      const late = NOW_MS + 30 * DAY_MS;
      assert.deepEqual(await deleteResults(store, "local", { kind: "result", resultId: id("second") }, late), { resultsDeleted: 1, blobsDeleted: 0 });
      assert.ok(await store.exists(blobKey("local", sha("recorded\n"))));
      assert.ok(await store.exists(blobRefKey("local", sha("recorded\n"), id("first"))));
    });

    for (const [what, body] of [
      ["an earlier archive wrote empty", ""],
      ["that is not Loupe's", "not json"],
    ] as const) {
      it(`keeps the blob for a marker ${what}, which names no expiry`, async () => {
        await leftOver(store, id("old"), "old marker\n", NOW_MS, encoder.encode(body));
        await save(store, "local", id("new"), "s1", "old marker\n", NOW_MS);
        assert.deepEqual(await deleteResults(store, "local", { kind: "result", resultId: id("new") }, NOW_MS + 365 * DAY_MS), {
          resultsDeleted: 1,
          blobsDeleted: 0,
        });
        assert.ok(await store.exists(blobKey("local", sha("old marker\n"))));
      });
    }
  });
});

describe("deleteTargetFrom()", () => {
  it("maps each target", () => {
    assert.deepEqual(deleteTargetFrom(create(DeleteRequestSchema, { target: { case: "resultId", value: "r_1" } })), { kind: "result", resultId: "r_1" });
    assert.deepEqual(deleteTargetFrom(create(DeleteRequestSchema, { target: { case: "sessionId", value: "" } })), { kind: "session", sessionId: "" });
    assert.deepEqual(deleteTargetFrom(create(DeleteRequestSchema, { target: { case: "tenant", value: true } })), { kind: "tenant" });
  });

  for (const target of [undefined, { case: "resultId" as const, value: "" }, { case: "tenant" as const, value: false }]) {
    it(`refuses ${JSON.stringify(target)}`, () => {
      assert.throws(
        () => deleteTargetFrom(create(DeleteRequestSchema, target ? { target } : {})),
        (error) => isAppError(error) && error.code === "invalid_argument",
      );
    });
  }
});
