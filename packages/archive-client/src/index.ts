/**
 * @loupe/archive-client: the archive service as the gateway and the note-worker call it, over gRPC,
 * each call naming its tenant.
 *
 * @packageDocumentation
 */

export { createArchiveClient, createInProcessArchiveClient } from "./create-archive-client.js";
export { INTERNAL_TOKEN_METADATA_KEY, TENANT_METADATA_KEY } from "./metadata-keys.js";
export { readTurnLog } from "./read-turn-log.js";
export type { ArchiveClient, PutCallOptions } from "./create-archive-client.js";
export type { TurnLogRange } from "./read-turn-log.js";
