export { createFileArchiveStore } from "./file-archive-store.js";
export { createLmdbArchiveStore } from "./lmdb-archive-store.js";
export { lmdbAvailable } from "./lmdb-database.js";
export {
  blobKey,
  blobRefKey,
  blobRefPrefix,
  expiryEntryKey,
  expiryPrefix,
  lineIndexKey,
  parseExpiryEntryKey,
  recordKey,
  resultIdFromKey,
  sessionEntryKey,
  sessionPrefix,
  tenantFromFolder,
  tenantMarkerKey,
  tenantPrefix,
  TENANTS_PREFIX,
  turnLogPrefix,
  turnsPrefix,
  turnKey,
  seqFromTurnKey,
  sessionContextKey,
} from "./archive-keys.js";

export { canonicalBytes, revisionOf, createRevisionHasher } from "./revision-of.js";
export type { ArchiveStore, AtomicPut, ByteRange, PutAllOptions, PutOptions, PutOutcome, StoreCallOptions } from "./archive-store.js";

export type { LmdbArchiveStoreOptions } from "./lmdb-archive-store.js";
export type { CanonicalPart } from "./revision-of.js";
export { validateSessionId, checkSessionIdLength, MAX_SESSION_ID_CHARS } from "./session-id.js";
