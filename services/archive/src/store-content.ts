import { blobKey, lineIndexKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { PutHeader } from "@loupe/proto";
import { encodeLineIndex, type createLineIndexBuilder, type LineIndex } from "./line-index.js";

/** Contents up to this size are read whole before they are stored, and objects found already stored are checked. */
export const SMALL_CONTENT_BYTES = 256 * 1024;
/**
 * On a store without atomic multi-object writes (S3, the file store), contents up to this size are kept in
 * their record's object instead of a shared blob with a line index (see putResult): a Put is then two
 * writes after the index entries' two instead of three after three, and a Read one fetch instead of three.
 */
export const INLINE_CONTENT_BYTES = 64 * 1024;

type PutOptions = { signal?: AbortSignal; deferSync: boolean };

/** A Put's content as it arrives: its header, the SHA-256 hex of its declared revision, and its verifying chunks feeding `builder`. */
export interface ContentStream {
  header: PutHeader;
  sha: string;
  chunks: AsyncIterable<Uint8Array>;
  builder: ReturnType<typeof createLineIndexBuilder>;
}

/**
 * Writes `bytes` at `key` again when the stored object differs (a torn leftover); a missing one is written too.
 * Only a store that places objects before they are durable (one with `sync`, the file store) can hold a torn
 * leftover: on any other (S3, where every put is durable) this reads nothing.
 */
async function healObject(store: ArchiveStore, key: string, bytes: Uint8Array, options: PutOptions): Promise<void> {
  if (store.sync === undefined) return;
  const stored = await store.get(key, options.signal ? { signal: options.signal } : {}).catch(() => undefined);
  if (stored !== undefined && Buffer.compare(stored, bytes) === 0) return;
  await store.put(key, bytes, options);
}

/**
 * Stores a content larger than SMALL_CONTENT_BYTES (or of unknown size) once per tenant (content-addressed,
 * conditional create) as it streams from `chunks` (which verify size and revision, and feed `builder`, as
 * they pass), then its line index. A small content goes through {@link storeSmallContent} instead.
 */
export async function storeStreamedContent(
  store: ArchiveStore,
  tenant: string,
  content: ContentStream,
  options: PutOptions,
): Promise<{ deduplicated: boolean; index: LineIndex }> {
  const { sha, header, chunks, builder } = content;
  const blob = blobKey(tenant, sha);
  let deduplicated = await store.exists(blob, options.signal ? { signal: options.signal } : {});
  if (!deduplicated) {
    // With the size known the store sends one conditional PUT (atomic even where a multipart
    // completion is not conditional), so concurrent writers of one content store it once.
    const size = header.sizeBytes > 0n ? { sizeBytes: Number(header.sizeBytes) } : {};
    deduplicated = (await store.put(blob, chunks, { ifAbsent: true, ...size, ...options })) === "exists";
  }
  // The store may leave a stream unread when the blob exists: read (and verify) the rest.
  for await (const _chunk of chunks);
  const index = builder.finish();
  await store.put(lineIndexKey(tenant, sha), encodeLineIndex(index), { ifAbsent: true, contentType: "application/json", ...options });
  return { deduplicated, index };
}

/**
 * Places a small content read whole and its line index together (conditional creates); returns whether the
 * blob was already stored. What a store finds already there may be the unsynced leftover of a Put that was
 * never acknowledged, torn by a crash: it is compared with this Put's own bytes, and written again when it
 * differs.
 */
export async function storeSmallContent(
  store: ArchiveStore,
  tenant: string,
  sha: string,
  bytes: Uint8Array,
  index: LineIndex,
  options: PutOptions,
): Promise<boolean> {
  const blob = blobKey(tenant, sha);
  const indexKey = lineIndexKey(tenant, sha);
  const indexBytes = encodeLineIndex(index);
  const [stored, indexed] = await Promise.all([
    // The chunks were checked against the revision: S3 need not hash the body again to sign it.
    store.put(blob, bytes, { ifAbsent: true, sizeBytes: bytes.byteLength, sha256Hex: sha, ...options }),
    store.put(indexKey, indexBytes, { ifAbsent: true, contentType: "application/json", ...options }),
  ]);
  await Promise.all([
    stored === "exists" ? healObject(store, blob, bytes, options) : undefined,
    indexed === "exists" ? healObject(store, indexKey, indexBytes, options) : undefined,
  ]);
  return stored === "exists";
}

/**
 * A small content read whole from its (verifying) chunks.
 * @throws AppError `invalid_argument` when it runs longer than `sizeBytes`
 */
export async function readSmallContent(chunks: AsyncIterable<Uint8Array>, sizeBytes: bigint): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > sizeBytes) throw new AppError("invalid_argument", `content longer than its size_bytes [size_bytes=${String(sizeBytes)}]`);
    parts.push(chunk);
  }
  return parts.length === 1 && parts[0] !== undefined ? parts[0] : Buffer.concat(parts);
}

/**
 * For a Put that found its content already stored: throws AppError `aborted` (retryable) when the blob is
 * gone by now — a delete of the last other result using it listed the reference markers before this Put's
 * landed and removed the blob after this Put relied on it. The Put's record is kept; a retry uploads the
 * content again.
 */
export async function assertBlobKept(store: ArchiveStore, tenant: string, sha: string, resultId: string, options: { signal?: AbortSignal }): Promise<void> {
  if (!(await store.exists(blobKey(tenant, sha), options))) {
    throw new AppError("aborted", `blob deleted by a concurrent delete; retry the put [result_id=${resultId}]`);
  }
}
