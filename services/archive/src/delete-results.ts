import {
  blobRefKey,
  expiryEntryKey,
  recordKey,
  resultIdFromKey,
  sessionEntryKey,
  sessionPrefix,
  tenantMarkerKey,
  tenantPrefix,
  turnLogPrefix,
  type ArchiveStore,
} from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { DeleteRequest } from "@loupe/proto";
import { deleteBlobIfUnused } from "./blob-references.js";
import { shaOfRevision, type ResultEntryTarget } from "./result-entries.js";
import { readStoredRecord } from "./result-record.js";

/** What a delete removes: one result, one session's results, or all of a tenant's. */
export type DeleteTarget = { kind: "result"; resultId: string } | { kind: "session"; sessionId: string } | { kind: "tenant" };

/** What a delete removed. */
export interface DeleteOutcome {
  resultsDeleted: number;
  /** Blobs removed because no remaining result referenced them. */
  blobsDeleted: number;
}

/** Deletes run this many results (or keys) at once. */
const DELETE_CONCURRENCY = 16;
/** Keys listed before a batch of deletes runs. */
const DELETE_BATCH_KEYS = 1000;
const RECORD_KEY = /\/results\/[A-Za-z0-9_-]+\.json$/;
const BLOB_KEY = /\/blobs\/[0-9a-f]{64}$/;

/**
 * Removes what one result owns, record first (reads answer `not_found` from then on), then its session and
 * expiry entries, its reference marker, and its blob when no other result uses it (an inline result has
 * neither: its content was in its record). Missing pieces are skipped.
 */
export async function deleteResultEntries(
  store: ArchiveStore,
  tenant: string,
  target: ResultEntryTarget,
  nowMs: number,
  signal?: AbortSignal,
): Promise<number> {
  const options = signal ? { signal } : {};
  const sha = shaOfRevision(target.revision);
  await store.delete(recordKey(tenant, target.resultId), options);
  await Promise.all([
    store.delete(sessionEntryKey(tenant, target.sessionId, target.resultId), options),
    store.delete(expiryEntryKey(tenant, target.expiresAtMs, target.resultId), options),
  ]);
  const marker = blobRefKey(tenant, sha, target.resultId);
  // An inline result's content went with its record and its Put wrote no marker. One exists only when a later
  // Put of the same id, with inline storage turned off meanwhile, stored the blob and found this record.
  if (target.inline === true && !(await store.exists(marker, options))) return 0;
  await store.delete(marker, options);
  return deleteBlobIfUnused(store, tenant, sha, nowMs, signal);
}

async function deleteOne(store: ArchiveStore, tenant: string, resultId: string, nowMs: number, signal?: AbortSignal): Promise<DeleteOutcome> {
  const record = await readStoredRecord(store, tenant, resultId, signal);
  if (!record) return { resultsDeleted: 0, blobsDeleted: 0 };
  return { resultsDeleted: 1, blobsDeleted: await deleteResultEntries(store, tenant, record, nowMs, signal) };
}

async function deleteSession(store: ArchiveStore, tenant: string, sessionId: string, nowMs: number, signal?: AbortSignal): Promise<DeleteOutcome> {
  const options = signal ? { signal } : {};
  const total: DeleteOutcome = { resultsDeleted: 0, blobsDeleted: 0 };
  await forEachKey(store.list(sessionPrefix(tenant, sessionId), options), async (key) => {
    const outcome = await deleteOne(store, tenant, resultIdFromKey(key), nowMs, signal);
    // An entry whose record never came (a failed Put) goes too; the sweeper removes the rest at its expiry.
    await store.delete(key, options);
    total.resultsDeleted += outcome.resultsDeleted;
    total.blobsDeleted += outcome.blobsDeleted;
  });
  // The session's turn log and context go with it.
  await forEachKey(store.list(turnLogPrefix(tenant, sessionId), options), (key) => store.delete(key, options));
  return total;
}

/**
 * Deletes a whole tenant: records first (so reads stop), then every other key under `v1/<tenant>/`, then
 * the tenant marker an earlier archive may have written. A Put running meanwhile may leave some of its keys
 * behind; deleting again removes them.
 */
async function deleteTenant(store: ArchiveStore, tenant: string, signal?: AbortSignal): Promise<DeleteOutcome> {
  const options = signal ? { signal } : {};
  const prefix = tenantPrefix(tenant);
  const total: DeleteOutcome = { resultsDeleted: 0, blobsDeleted: 0 };
  await forEachKey(store.list(`${prefix}results/`, options), async (key) => {
    await store.delete(key, options);
    if (RECORD_KEY.test(key)) total.resultsDeleted++;
  });
  await forEachKey(store.list(prefix, options), async (key) => {
    await store.delete(key, options);
    if (BLOB_KEY.test(key)) total.blobsDeleted++;
  });
  await store.delete(tenantMarkerKey(tenant), options);
  return total;
}

/**
 * Deletes one result, a session's results or a tenant's: records, index entries, and blobs no remaining
 * result uses (`nowMs` tells which reference markers are left over, see deleteBlobIfUnused). Deleting
 * something absent is not an error (counts 0), so a delete can be retried.
 *
 * @throws AppError from the store (`unavailable`, `cancelled`, …); a failed delete may have removed part of
 *   the target, and repeating it finishes the job.
 */
export async function deleteResults(store: ArchiveStore, tenant: string, target: DeleteTarget, nowMs: number, signal?: AbortSignal): Promise<DeleteOutcome> {
  switch (target.kind) {
    case "result":
      return deleteOne(store, tenant, target.resultId, nowMs, signal);
    case "session":
      return deleteSession(store, tenant, target.sessionId, nowMs, signal);
    case "tenant":
      return deleteTenant(store, tenant, signal);
  }
}

/**
 * @internal
 * Runs `action` on every listed key, up to {@link DELETE_CONCURRENCY} at once, a page at a time, so memory
 * stays bounded however many keys there are. Deleting listed keys while listing is safe: S3 continues after
 * the last key returned, and the filesystem walk reads each directory before yielding from it.
 */
export async function forEachKey(keys: AsyncIterable<string>, action: (key: string) => Promise<void>): Promise<void> {
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    const current = batch;
    batch = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let index = next++; index < current.length; index = next++) await action(current[index] ?? "");
    };
    await Promise.all(Array.from({ length: Math.min(DELETE_CONCURRENCY, current.length) }, worker));
  };
  for await (const key of keys) {
    batch.push(key);
    if (batch.length >= DELETE_BATCH_KEYS) await flush();
  }
  await flush();
}

/**
 * The target a Delete request names.
 * @throws AppError `invalid_argument` when it names none, an empty id, or `tenant: false`
 */
export function deleteTargetFrom(request: DeleteRequest): DeleteTarget {
  const target = request.target;
  switch (target.case) {
    case "resultId":
      if (target.value === "") break;
      return { kind: "result", resultId: target.value };
    case "sessionId":
      return { kind: "session", sessionId: target.value };
    case "tenant":
      if (!target.value) break;
      return { kind: "tenant" };
    case undefined:
      break;
  }
  throw new AppError("invalid_argument", "delete needs a target: result_id, session_id, or tenant = true");
}
