import { blobRefKey, expiryEntryKey, sessionEntryKey, type ArchiveStore, type AtomicPut } from "@loupe/archive-store";

/**
 * What a result's index entries point at: enough to delete everything the result owns, also when its
 * record was never written (a Put that failed after its entries).
 */
export interface ResultEntryTarget {
  resultId: string;
  sessionId: string;
  /** `sha256:<hex>`. */
  revision: string;
  /** Milliseconds since the epoch. */
  expiresAtMs: number;
  /** True for a result whose record carries its content: it has no blob reference marker and no blob of its own. */
  inline?: true;
}

/**
 * The body of a result's blob reference marker: when the result expires. A marker whose result is gone
 * and whose expiry is past names no live reference (see deleteBlobIfUnused): what a crash between the
 * entries of a Put can leave (the marker stored, the expiry entry that would have swept it not).
 */
export function referenceMarkerBody(expiresAtMs: number): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ expiresAtMs }));
}

/** The expiry a reference marker's body names; undefined for an empty body (markers written before bodies were) or an unreadable one. */
export function markerExpiry(body: Uint8Array): number | undefined {
  if (body.byteLength === 0) return undefined;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { expiresAtMs?: unknown };
    return Number.isSafeInteger(parsed.expiresAtMs) ? (parsed.expiresAtMs as number) : undefined;
  } catch {
    // Not JSON: nothing Loupe wrote; treated as a live reference.
    return undefined;
  }
}

const JSON_TYPE = { contentType: "application/json" };

/** The SHA-256 hex of a `sha256:<hex>` revision. */
export const shaOfRevision = (revision: string): string => revision.slice("sha256:".length);

/**
 * Writes a result's index entries before its blob and record: the session entry, the blob reference
 * marker, and the expiry entry, whose body names the session and revision so the sweeper can clean up
 * after a Put that never wrote its record (the sweeper finds the tenant by its folder, which the entries
 * create).
 *
 * The reference marker goes first on purpose: a concurrent delete of the last other result using the blob
 * lists the markers after removing its own, so once this resolves that delete keeps the blob. With
 * `deferSync` the entries are placed (readable, so the delete sees them) and made durable by the caller's
 * `store.sync` of the keys returned, with the rest of its put. An inline target (its content in its record)
 * gets no reference marker.
 */
export async function writeResultEntries(
  store: ArchiveStore,
  tenant: string,
  target: ResultEntryTarget,
  signal?: AbortSignal,
  deferSync = false,
): Promise<string[]> {
  const options = { ...(signal ? { signal } : {}), ...(deferSync ? { deferSync } : {}) };
  const [reference, session, expiry] = resultEntryObjects(tenant, target);
  await Promise.all([
    // An inline result shares no blob: nothing for a marker to keep.
    target.inline === true ? undefined : store.put(reference.key, reference.body, { ...JSON_TYPE, ...options }),
    store.put(session.key, session.body, options),
    store.put(expiry.key, expiry.body, { ...JSON_TYPE, ...options }),
  ]);
  return target.inline === true ? [session.key, expiry.key] : [reference.key, session.key, expiry.key];
}

/**
 * A result's index entries as objects: the blob reference marker (naming the expiry), the session entry
 * (empty) and the expiry entry (naming the session and revision), in that order.
 */
export function resultEntryObjects(tenant: string, target: ResultEntryTarget): [AtomicPut, AtomicPut, AtomicPut] {
  const intent = new TextEncoder().encode(JSON.stringify({ sessionId: target.sessionId, revision: target.revision }));
  return [
    { key: blobRefKey(tenant, shaOfRevision(target.revision), target.resultId), body: referenceMarkerBody(target.expiresAtMs) },
    { key: sessionEntryKey(tenant, target.sessionId, target.resultId), body: new Uint8Array(0) },
    { key: expiryEntryKey(tenant, target.expiresAtMs, target.resultId), body: intent },
  ];
}

/**
 * Reads the session and revision an expiry entry recorded, or undefined when the entry is gone or unreadable.
 */
export async function readExpiryIntent(store: ArchiveStore, key: string, signal?: AbortSignal): Promise<{ sessionId: string; revision: string } | undefined> {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(await store.get(key, signal ? { signal } : {}))) as { sessionId?: unknown; revision?: unknown };
    if (typeof parsed.sessionId === "string" && typeof parsed.revision === "string" && /^sha256:[0-9a-f]{64}$/.test(parsed.revision)) {
      return { sessionId: parsed.sessionId, revision: parsed.revision };
    }
    return undefined;
  } catch {
    // A vanished or corrupt entry holds nothing to clean up beyond itself.
    return undefined;
  }
}
