import { blobKey, blobRefPrefix, lineIndexKey, resultIdFromKey, type ArchiveStore } from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { markerExpiry } from "./result-entries.js";
import { readStoredRecord } from "./result-record.js";

/** How long past its expiry a record-less result's reference marker is kept before it counts as left over. */
export const STALE_MARKER_GRACE_MS = 60 * 60 * 1000;
/** A blob with more markers than this is kept without reading them (a blob that many results use is in use). */
const MAX_MARKERS_READ = 16;

/**
 * Whether a reference marker still keeps its blob: yes unless its result has no record and the expiry its
 * body names lies {@link STALE_MARKER_GRACE_MS} in the past — a marker that a crash between a Put's
 * entries left without the expiry entry that would have swept it. A marker with an empty body (written
 * before markers named their expiry) or one that cannot be read keeps its blob.
 */
async function keepsBlob(store: ArchiveStore, tenant: string, key: string, nowMs: number, signal?: AbortSignal): Promise<boolean> {
  let body: Uint8Array;
  try {
    body = await store.get(key, signal ? { signal } : {});
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return false;
    throw error;
  }
  const expiresAtMs = markerExpiry(body);
  if (expiresAtMs === undefined || expiresAtMs + STALE_MARKER_GRACE_MS > nowMs) return true;
  return (await readStoredRecord(store, tenant, resultIdFromKey(key), signal)) !== undefined;
}

/**
 * Deletes a blob and its line index when no reference marker that keeps it remains (see keepsBlob; the
 * markers that do not are deleted with it); returns 1 when it removed one.
 *
 * Race with a concurrent Put of the same content (put-result.ts): the Put writes its marker before it checks
 * that the blob exists, and this lists the markers after its own marker is gone. If the Put's marker landed
 * first, the blob stays. If not, the Put's existence check may still have seen the blob; the Put checks
 * again after writing its record and fails with `aborted`, so the caller retries and the retry uploads the
 * content. Only a Put that runs entirely between this listing and the deletion can keep a record whose blob
 * is gone (its reads then answer `not_found`; the next Put of that content restores the blob). The line
 * index goes first, so a Put that re-uploads the blob in between also re-creates its index.
 */
export async function deleteBlobIfUnused(store: ArchiveStore, tenant: string, sha256Hex: string, nowMs: number, signal?: AbortSignal): Promise<number> {
  const options = signal ? { signal } : {};
  const markers: string[] = [];
  for await (const marker of store.list(blobRefPrefix(tenant, sha256Hex), options)) {
    if (markers.length === MAX_MARKERS_READ) return 0;
    markers.push(marker);
  }
  for (const marker of markers) if (await keepsBlob(store, tenant, marker, nowMs, signal)) return 0;
  for (const marker of markers) await store.delete(marker, options);
  const existed = await store.exists(blobKey(tenant, sha256Hex), options);
  await store.delete(lineIndexKey(tenant, sha256Hex), options);
  await store.delete(blobKey(tenant, sha256Hex), options);
  return existed ? 1 : 0;
}
