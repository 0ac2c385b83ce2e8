import { blobKey, lineIndexKey, recordKey, type ArchiveStore } from "@loupe/archive-store";
import type { PutHeader } from "@loupe/proto";
import { encodeLineIndex, type createLineIndexBuilder } from "./line-index.js";
import { resultEntryObjects } from "./result-entries.js";
import { recordOf, settleExistingRecord, type StoredRecord } from "./result-record.js";
import { assertBlobKept, readSmallContent } from "./store-content.js";

/** A store that writes several objects in one atomic step. */
export type AtomicArchiveStore = ArchiveStore & Required<Pick<ArchiveStore, "putAll">>;

/** True when `store` has `putAll`. */
export const canPutAll = (store: ArchiveStore): store is AtomicArchiveStore => store.putAll !== undefined;

/** What {@link putAtOnce} needs: the Put's header, its verifying chunks and their line index builder. */
export interface PutAtOnceContext {
  store: AtomicArchiveStore;
  tenant: string;
  /** The content's SHA-256, hex. */
  sha: string;
  header: PutHeader;
  chunks: AsyncIterable<Uint8Array>;
  builder: ReturnType<typeof createLineIndexBuilder>;
  nowMs: number;
  retentionMs: number;
  signal: AbortSignal | undefined;
  /** Passed to the store's putAll (see PutAllOptions.onAccepted). */
  onAccepted?: () => void;
}

/**
 * Stores a small result in one atomic step of a store that has one (`putAll`): its index entries, its
 * blob and line index (conditional creates: content stored once per tenant) and its record, all visible
 * and durable together. The order the object-by-object Put keeps (entries, content, record) is then
 * given: no reader or delete sees some of them without the others, and a crash keeps all or none. A
 * record already under the id is settled as saveRecord does. Nothing is written when the content fails
 * its checks (size, revision, structured_start_byte).
 */
export async function putAtOnce(context: PutAtOnceContext): Promise<{ record: StoredRecord; deduplicated: boolean }> {
  const { store, tenant, sha, header, signal } = context;
  const bytes = await readSmallContent(context.chunks, header.sizeBytes);
  const index = context.builder.finish();
  const expiresAtMs = context.nowMs + context.retentionMs;
  const record = recordOf(header, index, context.nowMs, expiresAtMs);
  const entries = resultEntryObjects(tenant, { resultId: header.resultId, sessionId: header.sessionId, revision: header.revision, expiresAtMs });
  const options = signal ? { signal } : {};
  const outcomes = await store.putAll(
    [
      ...entries,
      { key: blobKey(tenant, sha), body: bytes, ifAbsent: true },
      { key: lineIndexKey(tenant, sha), body: encodeLineIndex(index), ifAbsent: true },
      { key: recordKey(tenant, header.resultId), body: new TextEncoder().encode(JSON.stringify(record)), ifAbsent: true },
    ],
    context.onAccepted ? { ...options, onAccepted: context.onAccepted } : options,
  );
  const [blob, , saved] = outcomes.slice(entries.length);
  const deduplicated = blob === "exists";
  // A delete of the last other result using the blob that listed the markers before this step may remove it after.
  if (deduplicated) await assertBlobKept(store, tenant, sha, header.resultId, options);
  return { record: saved === "created" ? record : await settleExistingRecord(store, tenant, record, { signal }), deduplicated };
}
