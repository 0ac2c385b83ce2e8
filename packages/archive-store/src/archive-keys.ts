import { AppError } from "@loupe/errors";
import { encodeKeySegment } from "./encode-key-segment.js";

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

function checkedSha256(sha256Hex: string): string {
  if (SHA256_HEX.test(sha256Hex)) return sha256Hex;
  throw new AppError("invalid_argument", `invalid sha256 hex digest [digest=${JSON.stringify(sha256Hex.slice(0, 80))}]`);
}
