import { createHash } from "node:crypto";
import { AppError } from "@loupe/errors";
import { decodeKeySegment, encodeKeySegment } from "./encode-key-segment.js";

const SHA256_HEX = /^[0-9a-f]{64}$/;
const LAYOUT_VERSION = "v1";

/**
 * The prefix of every key of one tenant: `v1/<tenant>/`, the tenant encoded with {@link encodeKeySegment}.
 * Pass the raw tenant id; this function encodes it.
 */
export function tenantPrefix(tenant: string): string {
  return `${LAYOUT_VERSION}/${encodeKeySegment(tenant)}/`;
}

/**
 * The key of a content-addressed blob, stored once per tenant: `v1/<tenant>/blobs/<sha256>`.
 *
 * @param sha256Hex - the SHA-256 of the content, 64 lowercase hex digits (no `sha256:` prefix).
 * @throws AppError `invalid_argument` when `sha256Hex` is not 64 lowercase hex digits.
 */
export function blobKey(tenant: string, sha256Hex: string): string {
  return `${tenantPrefix(tenant)}blobs/${checkedSha256(sha256Hex)}`;
}

/**
 * The key of a blob's line index, next to the blob: `v1/<tenant>/blobs/<sha256>.lines`.
 *
 * @throws AppError `invalid_argument` when `sha256Hex` is not 64 lowercase hex digits.
 */
export function lineIndexKey(tenant: string, sha256Hex: string): string {
  return `${blobKey(tenant, sha256Hex)}.lines`;
}

/**
 * The key of a result's record (session, source, tool, pointer to its blob, …):
 * `v1/<tenant>/results/<resultId>.json`, both ids encoded with {@link encodeKeySegment}.
 */
export function recordKey(tenant: string, resultId: string): string {
  return `${tenantPrefix(tenant)}results/${encodeKeySegment(resultId)}.json`;
}

/** The folder of every tenant's folder (`v1/<tenant>/`): the sweeper finds tenants by listing its folders. */
export const TENANTS_PREFIX = `${LAYOUT_VERSION}/`;

const MARKERS_SEGMENT = "_tenants";

/**
 * The tenant a folder `v1/<tenant>/` (as ArchiveStore.listFolders names it) holds the keys of; undefined for
 * any other folder (the tenant markers' `v1/_tenants/`, or a name no tenant encodes to).
 */
export function tenantFromFolder(folder: string): string | undefined {
  if (!folder.startsWith(TENANTS_PREFIX) || !folder.endsWith("/")) return undefined;
  const segment = folder.slice(TENANTS_PREFIX.length, -1);
  if (segment === MARKERS_SEGMENT || segment.includes("/")) return undefined;
  try {
    return decodeKeySegment(segment);
  } catch {
    // Not an encoded tenant: nothing Loupe wrote.
    return undefined;
  }
}

/**
 * The tenant marker `v1/_tenants/<tenant>` that earlier archives wrote with every result (their sweeper
 * listed the markers to find tenants; it now lists the tenants' folders). Nothing writes it now; deleting
 * a tenant deletes its marker too, so an archive written before keeps no trace of a deleted tenant. `_tenants` is not an output of {@link encodeKeySegment} (`_` starts an
 * uppercase hex escape), so no tenant's prefix can overlap it.
 */
export function tenantMarkerKey(tenant: string): string {
  return `${TENANTS_PREFIX}${MARKERS_SEGMENT}/${encodeKeySegment(tenant)}`;
}

const MAX_PLAIN_SESSION_SEGMENT = 128;

/**
 * The prefix of one session's index entries: `v1/<tenant>/sessions/<session>/`. The session id is encoded
 * with {@link encodeKeySegment}; when that is longer than 128 characters (keys stay under S3's 1,024 bytes)
 * it becomes `_h` + the SHA-256 hex of the id, a form encodeKeySegment never produces.
 */
export function sessionPrefix(tenant: string, sessionId: string): string {
  return `${tenantPrefix(tenant)}sessions/${sessionSegment(sessionId)}/`;
}

function sessionSegment(sessionId: string): string {
  const encoded = encodeKeySegment(sessionId);
  return encoded.length <= MAX_PLAIN_SESSION_SEGMENT ? encoded : `_h${createHash("sha256").update(sessionId, "utf8").digest("hex")}`;
}

const SEQ_DIGITS = 10;

/** The prefix of one session's turn log and context: `v1/<tenant>/turnlogs/<session>/` (session as in {@link sessionPrefix}). */
export function turnLogPrefix(tenant: string, sessionId: string): string {
  return `${tenantPrefix(tenant)}turnlogs/${sessionSegment(sessionId)}/`;
}

/** The prefix of a session's turns; listing it yields them in seq order. */
export function turnsPrefix(tenant: string, sessionId: string): string {
  return `${turnLogPrefix(tenant, sessionId)}turns/`;
}

/**
 * The key of one turn: `v1/<tenant>/turnlogs/<session>/turns/<seq>`, the seq as 10 zero-padded digits so keys sort by seq.
 * @throws AppError `invalid_argument` for a seq that is not an integer in 1…4,294,967,295.
 */
export function turnKey(tenant: string, sessionId: string, seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > 0xffffffff) throw new AppError("invalid_argument", `turn seq out of range [seq=${String(seq)}]`);
  return `${turnsPrefix(tenant, sessionId)}${String(seq).padStart(SEQ_DIGITS, "0")}`;
}

/** The seq a {@link turnKey} names, or undefined for another key. */
export function seqFromTurnKey(key: string): number | undefined {
  const match = /\/turns\/([0-9]{10})$/.exec(key);
  return match === null ? undefined : Number(match[1]);
}

/**
 * The key of a session's system prompt or tool schemas, stored once by content: `v1/<tenant>/turnlogs/<session>/context/<sha256>`.
 * @throws AppError `invalid_argument` when `sha256Hex` is not 64 lowercase hex digits.
 */
export function sessionContextKey(tenant: string, sessionId: string, sha256Hex: string): string {
  return `${turnLogPrefix(tenant, sessionId)}context/${checkedSha256(sha256Hex)}`;
}

/** The (empty) index entry listing a result under its session: `v1/<tenant>/sessions/<session>/<resultId>`. */
export function sessionEntryKey(tenant: string, sessionId: string, resultId: string): string {
  return `${sessionPrefix(tenant, sessionId)}${encodeKeySegment(resultId)}`;
}

/**
 * The prefix of a blob's reference markers: `v1/<tenant>/refs/<sha256>/`. A blob is in use while any
 * marker remains under it.
 *
 * @throws AppError `invalid_argument` when `sha256Hex` is not 64 lowercase hex digits.
 */
export function blobRefPrefix(tenant: string, sha256Hex: string): string {
  return `${tenantPrefix(tenant)}refs/${checkedSha256(sha256Hex)}/`;
}

/**
 * The marker saying a result uses a blob: `v1/<tenant>/refs/<sha256>/<resultId>` (the archive writes the
 * result's expiry as its body).
 * @throws AppError `invalid_argument` when `sha256Hex` is not 64 lowercase hex digits.
 */
export function blobRefKey(tenant: string, sha256Hex: string, resultId: string): string {
  return `${blobRefPrefix(tenant, sha256Hex)}${encodeKeySegment(resultId)}`;
}

const EXPIRY_DIGITS = 15;

/** The prefix of a tenant's expiry entries: `v1/<tenant>/expiries/`. Listing it yields them soonest first. */
export function expiryPrefix(tenant: string): string {
  return `${tenantPrefix(tenant)}expiries/`;
}

/**
 * The entry saying when a result expires: `v1/<tenant>/expiries/<expiresAtMs>-<resultId>`, the time as 15
 * zero-padded digits so keys sort by time.
 *
 * @param expiresAtMs - milliseconds since the epoch, a non-negative integer below 10^15.
 * @throws AppError `invalid_argument` for a time outside that range.
 */
export function expiryEntryKey(tenant: string, expiresAtMs: number, resultId: string): string {
  if (!Number.isSafeInteger(expiresAtMs) || expiresAtMs < 0 || expiresAtMs >= 10 ** EXPIRY_DIGITS) {
    throw new AppError("invalid_argument", `expiry time out of range [expires_at_ms=${String(expiresAtMs)}]`);
  }
  return `${expiryPrefix(tenant)}${String(expiresAtMs).padStart(EXPIRY_DIGITS, "0")}-${encodeKeySegment(resultId)}`;
}

/**
 * Reverses {@link expiryEntryKey} given the tenant's {@link expiryPrefix}.
 * @throws AppError `invalid_argument` when `key` is not an expiry entry under `prefix`.
 */
export function parseExpiryEntryKey(prefix: string, key: string): { expiresAtMs: number; resultId: string } {
  const rest = key.startsWith(prefix) ? key.slice(prefix.length) : "";
  const digits = rest.slice(0, EXPIRY_DIGITS);
  if (!/^[0-9]+$/.test(digits) || digits.length !== EXPIRY_DIGITS || rest[EXPIRY_DIGITS] !== "-") {
    throw new AppError("invalid_argument", `not an expiry entry key [key=${JSON.stringify(key.slice(0, 200))}]`);
  }
  return { expiresAtMs: Number(digits), resultId: decodeKeySegment(rest.slice(EXPIRY_DIGITS + 1)) };
}

/**
 * The result id an index entry or marker key ends with (the last segment, decoded).
 * @throws AppError `invalid_argument` when the last segment is not an encoded id.
 */
export function resultIdFromKey(key: string): string {
  return decodeKeySegment(key.slice(key.lastIndexOf("/") + 1));
}

/**
 * `sha256Hex` when it is 64 lowercase hex digits (a content address, a body's declared digest).
 * @throws AppError `invalid_argument` otherwise.
 */
export function checkedSha256(sha256Hex: string): string {
  if (SHA256_HEX.test(sha256Hex)) return sha256Hex;
  throw new AppError("invalid_argument", `invalid sha256 hex digest [digest=${JSON.stringify(sha256Hex.slice(0, 80))}]`);
}
