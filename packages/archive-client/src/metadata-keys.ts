// The archive call's metadata keys, alone in a module of their own: the archive imports them through
// `@loupe/archive-client/metadata-keys` without loading the client (whose turn-log reader brings the
// conversation and projection packages, and with them the tokenizers' vocabularies).

/**
 * The gRPC metadata key that carries the tenant of an archive call. The archive is internal: it
 * believes the tenant its callers (the gateway, the note-worker) name here.
 */
export const TENANT_METADATA_KEY = "x-loupe-tenant";
/** The gRPC metadata key that proves an archive caller is Loupe (LOUPE_INTERNAL_TOKEN). */
export const INTERNAL_TOKEN_METADATA_KEY = "x-loupe-internal-token";
