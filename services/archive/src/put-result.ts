import { blobKey, createRevisionHasher, lineIndexKey, recordKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { PutHeader, PutRequest } from "@loupe/proto";
import { createLineIndexBuilder } from "./line-index.js";
import type { StoredRecord } from "./result-record.js";
import { recordOf, saveRecord } from "./result-record.js";
import { writeResultEntries } from "./result-entries.js";
import { canPutAll, putAtOnce } from "./put-at-once.js";
import { putInline } from "./put-inline.js";
import {
  assertBlobKept,
  INLINE_CONTENT_BYTES,
  readSmallContent,
  SMALL_CONTENT_BYTES,
  storeSmallContent,
  storeStreamedContent,
  type ContentStream,
} from "./store-content.js";

/** What a Put needs besides its stream. */
export interface PutContext {
  store: ArchiveStore;
  tenant: string;
  nowMs: number;
  retentionMs: number;
  maxResultBytes: number;
  signal?: AbortSignal;
  /**
   * Called once the rest of the Put no longer needs this thread for long: a small result's atomic write
   * handed to the store (see PutAllOptions.onAccepted), or at once when the result is written object by
   * object (that path needs the thread throughout, a little at a time).
   */
  onAccepted?: () => void;
  /**
   * Largest content kept in its record on a store without `putAll` (default INLINE_CONTENT_BYTES; 0 keeps
   * every content in a shared blob, as Loupe did before it kept any inline).
   */
  inlineMaxBytes?: number;
}

const RESULT_ID_PATTERN = /^r_[A-Za-z0-9_-]{16,64}$/;
const REVISION_PATTERN = /^sha256:([0-9a-f]{64})$/;
// RFC 6838 type/subtype (parameters left out), within 127 characters.
const MIME_TYPE_PATTERN = /^(?=.{3,127}$)[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
/** Longest read scope kept with a record, in characters (a command line or a read's arguments). */
export const MAX_READ_SCOPE_CHARS = 4096;

async function readHeader(iterator: AsyncIterator<PutRequest>): Promise<PutHeader> {
  const first = await iterator.next();
  if (first.done === true || first.value.message.case !== "header") {
    throw new AppError("invalid_argument", "put must start with a header");
  }
  const header = first.value.message.value;
  if (!RESULT_ID_PATTERN.test(header.resultId)) throw new AppError("invalid_argument", `malformed result_id [result_id=${header.resultId.slice(0, 80)}]`);
  if (!REVISION_PATTERN.test(header.revision)) throw new AppError("invalid_argument", `malformed revision [revision=${header.revision.slice(0, 80)}]`);
  // A decoded header always has one; a header built in the process may leave it out.
  const readScope: string | undefined = header.readScope;
  if ((readScope ?? "").length > MAX_READ_SCOPE_CHARS)
    throw new AppError("invalid_argument", `read_scope too long [max_chars=${String(MAX_READ_SCOPE_CHARS)}]`);
  const mimeType: string | undefined = header.mimeType;
  if (mimeType !== undefined && mimeType !== "" && !MIME_TYPE_PATTERN.test(mimeType)) {
    throw new AppError("invalid_argument", `malformed mime_type (type/subtype, at most 127 characters) [mime_type=${mimeType.slice(0, 80)}]`);
  }
  return header;
}

/**
 * The chunks after the header, checked as they pass: size within the limit,
 * line index and hash updated; at the end the hash must equal the declared
 * revision, else the iteration throws (and the store discards the upload).
 */
async function* verifiedChunks(
  iterator: AsyncIterator<PutRequest>,
  header: PutHeader,
  maxResultBytes: number,
  index: ReturnType<typeof createLineIndexBuilder>,
): AsyncIterable<Uint8Array> {
  const hasher = createRevisionHasher();
  let size = 0;
  for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
    if (next.value.message.case !== "chunk") throw new AppError("invalid_argument", "put sends one header, then only chunks");
    const chunk = next.value.message.value;
    size += chunk.byteLength;
    if (size > maxResultBytes)
      throw new AppError("resource_exhausted", `result larger than LOUPE_MAX_RESULT_BYTES [limit=${String(maxResultBytes)}]`, { reason: "too_large" });
    hasher.update(chunk);
    index.update(chunk);
    yield chunk;
  }
  const actual = hasher.digest();
  if (actual !== header.revision) throw new AppError("invalid_argument", `content does not match its revision [declared=${header.revision}, actual=${actual}]`);
}

/**
 * Stores one streamed result: its index entries first (session entry, blob reference marker, expiry entry;
 * see writeResultEntries), then the blob once per tenant (content-addressed, conditional create), its line
 * index and the record (together for a small content, see storeContentAndRecord). Acknowledged only when
 * all are stored, so an acknowledged record always points at a complete blob. Returns the record and
 * whether the blob existed.
 *
 * @throws AppError `aborted` (retryable) when a concurrent delete removed the shared blob while this Put
 *   relied on it; the record is kept and the next Put of the content uploads the blob again.
 */
export async function putResult(requests: AsyncIterable<PutRequest>, context: PutContext): Promise<{ record: StoredRecord; deduplicated: boolean }> {
  const { store, tenant, signal } = context;
  const iterator = requests[Symbol.asyncIterator]();
  const header = await readHeader(iterator);
  const sha = REVISION_PATTERN.exec(header.revision)?.[1] ?? "";
  const builder = createLineIndexBuilder();
  const chunks = verifiedChunks(iterator, header, context.maxResultBytes, builder);
  // A store that writes several objects atomically takes a small result in one step (see putAtOnce).
  if (canPutAll(store) && header.sizeBytes > 0n && header.sizeBytes <= BigInt(SMALL_CONTENT_BYTES)) {
    const { nowMs, retentionMs, onAccepted } = context;
    return putAtOnce({ store, tenant, sha, header, chunks, builder, nowMs, retentionMs, signal, ...(onAccepted ? { onAccepted } : {}) });
  }
  context.onAccepted?.();
  if (header.sizeBytes > 0n && header.sizeBytes <= BigInt(context.inlineMaxBytes ?? INLINE_CONTENT_BYTES)) {
    return putInline(context, { header, sha, chunks, builder });
  }
  const options = signal ? { signal } : {};
  // Every object of the Put is placed (readable at once) and made durable together at the end (one
  // durable write where the store has a journal); the Put is acknowledged only then.
  const expiresAtMs = context.nowMs + context.retentionMs;
  // Entries before the blob: a delete racing with this Put then sees the reference marker (delete-results.ts).
  const entryKeys = await writeResultEntries(
    store,
    tenant,
    { resultId: header.resultId, sessionId: header.sessionId, revision: header.revision, expiresAtMs },
    signal,
    true,
  );
  const keys = [...entryKeys, blobKey(tenant, sha), lineIndexKey(tenant, sha), recordKey(tenant, header.resultId)];
  try {
    const { deduplicated, saved } = await storeContentAndRecord(context, { header, sha, chunks, builder }, expiresAtMs);
    await store.sync?.(keys, options);
    // Re-create nothing here if the blob went (the stream is spent): a retry uploads the content again.
    if (deduplicated) await assertBlobKept(store, tenant, sha, header.resultId, options);
    return { record: saved, deduplicated };
  } catch (error) {
    // What a failed Put placed is made durable all the same (as each write was before deferring): its
    // expiry entry then lets the sweeper remove it also after a crash. Not cancellable: it is the cleanup.
    await store.sync?.(keys).catch(() => undefined);
    throw error;
  }
}

/**
 * The content, its line index and the record. A small content is read whole, so its record is known
 * before anything is stored, and all three are placed together (one round trip to S3 instead of two); a
 * larger one streams first and its record follows. Either way the Put is acknowledged only after all of
 * them: a record placed beside a blob that then failed names a result id no caller was given, and its
 * expiry entry (written before) lets the sweeper remove it.
 */
async function storeContentAndRecord(
  context: PutContext,
  content: ContentStream,
  expiresAtMs: number,
): Promise<{ deduplicated: boolean; saved: StoredRecord }> {
  const { store, tenant, signal } = context;
  const { header, sha, chunks, builder } = content;
  const deferred = { ...(signal ? { signal } : {}), deferSync: true };
  if (header.sizeBytes > 0n && header.sizeBytes <= BigInt(SMALL_CONTENT_BYTES)) {
    const bytes = await readSmallContent(chunks, header.sizeBytes);
    const index = builder.finish();
    const record = recordOf(header, index, context.nowMs, expiresAtMs);
    // Both settle before an error surfaces, so the caller's clean-up sync sees every write of the Put ended.
    const [content, saved] = await Promise.allSettled([
      storeSmallContent(store, tenant, sha, bytes, index, deferred),
      saveRecord(store, tenant, record, { signal, deferSync: true }),
    ]);
    if (content.status === "rejected") throw content.reason;
    if (saved.status === "rejected") throw saved.reason;
    return { deduplicated: content.value, saved: saved.value };
  }
  const { deduplicated, index } = await storeStreamedContent(store, tenant, content, deferred);
  const saved = await saveRecord(store, tenant, recordOf(header, index, context.nowMs, expiresAtMs), { signal, deferSync: true });
  return { deduplicated, saved };
}
