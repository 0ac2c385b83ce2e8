import { blobKey, lineIndexKey, recordKey, type ArchiveStore, type AtomicPut, type PutOutcome, type StoreCallOptions } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { PutHeader } from "@loupe/proto";
import type { createLineIndexBuilder } from "./line-index.js";
import { resultEntryObjects } from "./result-entries.js";
import { recordOf, settleExistingRecord, type StoredRecord } from "./result-record.js";
import { readSmallContent } from "./store-content.js";

/** What {@link putAtOnce} needs: the Put's header, its verifying chunks and their line index builder. */
export interface PutAtOnceContext {
  store: ArchiveStore;
  tenant: string;
  /** The content's SHA-256, hex. */
  sha: string;
  header: PutHeader;
  chunks: AsyncIterable<Uint8Array>;
  builder: ReturnType<typeof createLineIndexBuilder>;
  nowMs: number;
  retentionMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Stores a small result in one atomic step of a store that has one (`putAll`): its index entries, its
 * blob and line index (conditional creates: content stored once per tenant) and its record, all visible
 * and durable together. The order the object-by-object Put keeps (entries, content, record) is then
 * given: no reader or delete sees some of them without the others, and a crash keeps all or none. A
 * record already under the id is settled as saveRecord does. Nothing is written when the content fails
 * its checks (size, revision, structured_start_byte).
 */
export async function putAtOnce(
  putAll: (objects: readonly AtomicPut[], options?: StoreCallOptions) => Promise<PutOutcome[]>,
  context: PutAtOnceContext,
): Promise<{ record: StoredRecord; deduplicated: boolean }> {
  const { store, tenant, sha, header, signal } = context;
  const bytes = await readSmallContent(context.chunks, header.sizeBytes);
  const index = context.builder.finish();
  const expiresAtMs = context.nowMs + context.retentionMs;
  const record = recordOf(header, index, context.nowMs, expiresAtMs);
  const encoder = new TextEncoder();
  const entries = resultEntryObjects(tenant, { resultId: header.resultId, sessionId: header.sessionId, revision: header.revision, expiresAtMs });
  const outcomes = await putAll(
    [
      ...entries,
      { key: blobKey(tenant, sha), body: bytes, ifAbsent: true },
      { key: lineIndexKey(tenant, sha), body: encoder.encode(JSON.stringify(index)), ifAbsent: true },
      { key: recordKey(tenant, header.resultId), body: encoder.encode(JSON.stringify(record)), ifAbsent: true },
    ],
    signal ? { signal } : {},
  );
  const [blob, , saved] = outcomes.slice(entries.length);
  const deduplicated = blob === "exists";
  // A delete of the last other user that listed the markers before this step may remove the blob after it.
  if (deduplicated && !(await store.exists(blobKey(tenant, sha), signal ? { signal } : {}))) {
    throw new AppError("aborted", `blob deleted by a concurrent delete; retry the put [result_id=${header.resultId}]`);
  }
  return { record: saved === "created" ? record : await settleExistingRecord(store, tenant, record, signal), deduplicated };
}
