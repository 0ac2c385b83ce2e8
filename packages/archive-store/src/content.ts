/**
 * @loupe/archive-store/content: the pure content rules of saved results — canonical bytes,
 * revisions, session ids, tenant names — that callers of the archive (the gateway) share with it, importable
 * without loading a storage adapter or the AWS SDK.
 *
 * @packageDocumentation
 */

export { canonicalBytes, canonicalContent, revisionOf } from "./revision-of.js";
export { validateSessionId, checkSessionIdLength, MAX_SESSION_ID_CHARS } from "./session-id.js";
export { isTenantName, requireTenantName } from "./tenant-name.js";
export type { CanonicalPart } from "./revision-of.js";
