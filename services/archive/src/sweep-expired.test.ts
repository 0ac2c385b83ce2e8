import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  blobKey,
  blobRefKey,
  createFileArchiveStore,
  createLmdbArchiveStore,
  expiryEntryKey,
  revisionOf,
  sessionEntryKey,
  tenantMarkerKey,
  type ArchiveStore,
} from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import type { PutRequest } from "@loupe/proto";
import { putResult } from "./put-result.js";
import { STALE_MARKER_GRACE_MS } from "./blob-references.js";
import { resultEntryObjects, writeResultEntries } from "./result-entries.js";
import { loadRecord } from "./result-record.js";
import { startSweeper, sweepExpired, type SweepOutcome } from "./sweep-expired.js";

const DAY_MS = 86_400_000;
const T0 = 1_700_000_000_000;
const encoder = new TextEncoder();
const id = (name: string): string => `r_${name.padEnd(16, "0")}`;
const sha = (text: string): string => revisionOf(encoder.encode(text)).slice("sha256:".length);

async function* putStream(resultId: string, sessionId: string, text: string): AsyncIterable<PutRequest> {
  const bytes = encoder.encode(text);
  yield { message: { case: "header", value: { resultId, sessionId, revision: revisionOf(bytes), sizeBytes: BigInt(bytes.byteLength) } } } as PutRequest;
  yield { message: { case: "chunk", value: bytes } } as PutRequest;
}

/** Saves one result as the archive's Put does with a content over INLINE_CONTENT_BYTES: in a blob the tenant's results share. */
function save(store: ArchiveStore, tenant: string, resultId: string, text: string, nowMs: number) {
  return putResult(putStream(resultId, "s1", text), { store, tenant, nowMs, retentionMs: 7 * DAY_MS, maxResultBytes: 1 << 20, inlineMaxBytes: 0 });
}

async function allKeys(store: ArchiveStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.list("")) keys.push(key);
  return keys;
}

describe("sweepExpired()", () => {
  let directory: string;
  let store: ArchiveStore;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-sweep-"));
    store = createFileArchiveStore({ directory });
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it("deletes expired results of every tenant, keeps live ones and blobs they share", async () => {
    await save(store, "local", id("old"), "shared\n", T0);
    await save(store, "local", id("oldonly"), "old only\n", T0);
    await save(store, "local", id("new"), "shared\n", T0 + 3 * DAY_MS);
    await save(store, "acme", id("old"), "acme\n", T0);

    const outcome = await sweepExpired(store, T0 + 8 * DAY_MS);

    assert.deepEqual(outcome, { resultsDeleted: 3, blobsDeleted: 2, entriesRemoved: 0 });
    assert.equal((await loadRecord(store, "local", id("new"), T0 + 8 * DAY_MS)).resultId, id("new"));
    assert.ok(await store.exists(blobKey("local", sha("shared\n"))));
    assert.equal(await store.exists(blobKey("local", sha("old only\n"))), false);
    assert.ok(!(await allKeys(store)).some((key) => key.startsWith("v1/acme/")));
  });

  it("counts every blob it deletes when it sweeps several results at once", async () => {
    const texts = ["one\n", "two\n", "three\n", "four\n"];
    for (const [index, text] of texts.entries()) await save(store, "local", id(`r${String(index)}`), text, T0);
    // Every blob's existence check waits until all of them have been asked: the deletions overlap for certain.
    const asked: (() => void)[] = [];
    const overlapping: ArchiveStore = {
      ...store,
      exists: async (key, options) => {
        if (key.includes("/blobs/")) {
          const all = new Promise<void>((resolve) => asked.push(resolve));
          if (asked.length === texts.length) for (const resolve of asked) resolve();
          await all;
        }
        return store.exists(key, options);
      },
    };

    const outcome = await sweepExpired(overlapping, T0 + 8 * DAY_MS);

    assert.equal(asked.length, texts.length);
    assert.deepEqual(outcome, { resultsDeleted: 4, blobsDeleted: 4, entriesRemoved: 0 });
    assert.deepEqual(await allKeys(store), []);
  });

  it("finds every tenant by its folder, with no marker written, on the LMDB store too", async () => {
    const lmdbDirectory = await mkdtemp(join(tmpdir(), "loupe-sweep-lmdb-"));
    const lmdb = createLmdbArchiveStore({ directory: lmdbDirectory });
    try {
      for (const target of [store, lmdb]) {
        for (const tenant of ["local", "acme", "défi 😀", ""]) await save(target, tenant, id("old"), `${tenant}\n`, T0);
        assert.ok(!(await allKeys(target)).some((key) => key.startsWith("v1/_tenants/")), "no tenant marker");
        assert.deepEqual(await sweepExpired(target, T0 + 8 * DAY_MS), { resultsDeleted: 4, blobsDeleted: 4, entriesRemoved: 0 });
        assert.deepEqual(await allKeys(target), []);
      }
    } finally {
      await lmdb.close?.();
      await rm(lmdbDirectory, { recursive: true, force: true });
    }
  });

  it("sweeps an archive an earlier version wrote, tenant markers and all", async () => {
    await save(store, "local", id("old"), "old\n", T0);
    await store.put(tenantMarkerKey("local"), new Uint8Array(0));
    // A marker of a tenant whose keys are all gone names a folder-less tenant: nothing to sweep, no failure.
    await store.put(tenantMarkerKey("gone"), new Uint8Array(0));
    assert.deepEqual(await sweepExpired(store, T0 + 8 * DAY_MS), { resultsDeleted: 1, blobsDeleted: 1, entriesRemoved: 0 });
    assert.deepEqual(await allKeys(store), [tenantMarkerKey("gone"), tenantMarkerKey("local")]);
  });

  it("leaves everything before expiry, and answers expired before the sweep", async () => {
    await save(store, "local", id("a"), "text\n", T0);
    const before = await allKeys(store);
    assert.deepEqual(await sweepExpired(store, T0 + 7 * DAY_MS - 1), { resultsDeleted: 0, blobsDeleted: 0, entriesRemoved: 0 });
    assert.deepEqual(await allKeys(store), before);
    await assert.rejects(
      loadRecord(store, "local", id("a"), T0 + 7 * DAY_MS),
      (error) => isAppError(error) && error.code === "not_found" && error.message.includes("expired"),
    );
  });

  it("cleans up after a Put that wrote its entries but never its record", async () => {
    const revision = revisionOf(encoder.encode("lost\n"));
    await writeResultEntries(store, "local", { resultId: id("lost"), sessionId: "s9", revision, expiresAtMs: T0 });
    assert.deepEqual(await sweepExpired(store, T0), { resultsDeleted: 0, blobsDeleted: 0, entriesRemoved: 1 });
    const keys = await allKeys(store);
    for (const key of [blobRefKey("local", sha("lost\n"), id("lost")), sessionEntryKey("local", "s9", id("lost")), expiryEntryKey("local", T0, id("lost"))]) {
      assert.ok(!keys.includes(key), key);
    }
  });

  it("removes a blob whose only other marker a Put left without its expiry entry, once that marker's expiry has passed", async () => {
    const revision = revisionOf(encoder.encode("orphaned\n"));
    const [marker] = resultEntryObjects("local", { resultId: id("crashed"), sessionId: "s9", revision, expiresAtMs: T0 + 7 * DAY_MS });
    await store.put(marker.key, marker.body);
    await save(store, "local", id("later"), "orphaned\n", T0 + DAY_MS);
    const outcome = await sweepExpired(store, T0 + 8 * DAY_MS + STALE_MARKER_GRACE_MS);
    assert.deepEqual(outcome, { resultsDeleted: 1, blobsDeleted: 1, entriesRemoved: 0 });
    assert.deepEqual(await allKeys(store), []);
  });
});

describe("startSweeper()", () => {
  it("sweeps on its interval and stops", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-sweeper-"));
    try {
      const store = createFileArchiveStore({ directory });
      await save(store, "local", id("a"), "text\n", T0);
      const outcomes: SweepOutcome[] = [];
      const sweeper = startSweeper({ store, intervalMs: 10, now: () => T0 + 8 * DAY_MS, onSweep: (outcome) => outcome && outcomes.push(outcome) });
      for (let waited = 0; outcomes.length < 2 && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      await sweeper.stop();
      assert.equal(outcomes[0]?.resultsDeleted, 1);
      assert.equal(outcomes[1]?.resultsDeleted, 0);
      assert.deepEqual(await allKeys(store), []);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
