import type { MessageInitShape } from "@bufbuild/protobuf";
import { createGrpcClient, createInProcessClient, type ServiceClient, type ServiceHandlers } from "@loupe/grpc";
import {
  ArchiveService,
  type ArchiveServiceAppendTurnsRequestSchema,
  type ArchiveServiceAppendTurnsResponse,
  type DeleteRequestSchema,
  type DeleteResponse,
  type PutHeaderSchema,
  type ReadRequestSchema,
  type ReadResponse,
  type ReadTurnsRequestSchema,
  type ReadTurnsResponse,
  type ResultRecord,
  type SearchRequestSchema,
  type SearchResponse,
  type SearchTurnsRequestSchema,
  type SearchTurnsResponse,
} from "@loupe/proto";
import { INTERNAL_TOKEN_METADATA_KEY, TENANT_METADATA_KEY } from "./metadata-keys.js";

/** Bytes per Put chunk: small enough to stream, large enough to keep calls few. */
export const PUT_CHUNK_BYTES = 256 * 1024;

/** Options of a {@link ArchiveClient}'s put. */
export interface PutCallOptions {
  /** Deadline of the whole put, in ms. */
  timeoutMs: number;
  /** The caller's cancellation: aborting it cancels the put. */
  signal?: AbortSignal;
  /**
   * Called at most once, when the archive holds the whole result and the caller's thread is free for other
   * work until the put resolves: over gRPC once the result is sent; in process once the store's write no
   * longer needs this thread (LMDB: its transaction handed to the write thread), else when the put ends.
   */
  onAccepted?: () => void;
}

/** The archive service as its callers (the gateway, the note-worker) see it: every call names its tenant. */
export interface ArchiveClient {
  /** Streams one result to the archive; rejects with AppError (deadline_exceeded past `timeoutMs`, cancelled when `signal` aborts, unavailable when down). */
  put(tenant: string, header: MessageInitShape<typeof PutHeaderSchema>, bytes: Uint8Array, options: PutCallOptions): Promise<ResultRecord>;
  read(tenant: string, request: MessageInitShape<typeof ReadRequestSchema>, signal?: AbortSignal): Promise<ReadResponse>;
  search(tenant: string, request: MessageInitShape<typeof SearchRequestSchema>, signal?: AbortSignal): Promise<SearchResponse>;
  /** Deletes results of `tenant` (one, a session's, or all); rejects with AppError as the archive answered. */
  delete(tenant: string, request: MessageInitShape<typeof DeleteRequestSchema>, signal?: AbortSignal): Promise<DeleteResponse>;
  appendTurns(
    tenant: string,
    request: MessageInitShape<typeof ArchiveServiceAppendTurnsRequestSchema>,
    signal?: AbortSignal,
  ): Promise<ArchiveServiceAppendTurnsResponse>;
  readTurns(tenant: string, request: MessageInitShape<typeof ReadTurnsRequestSchema>, signal?: AbortSignal): Promise<ReadTurnsResponse>;
  searchTurns(tenant: string, request: MessageInitShape<typeof SearchTurnsRequestSchema>, signal?: AbortSignal): Promise<SearchTurnsResponse>;
  close(): void;
}

async function* putRequests(header: MessageInitShape<typeof PutHeaderSchema>, bytes: Uint8Array) {
  yield { message: { case: "header" as const, value: header } };
  for (let offset = 0; offset < bytes.byteLength; offset += PUT_CHUNK_BYTES) {
    yield { message: { case: "chunk" as const, value: bytes.subarray(offset, offset + PUT_CHUNK_BYTES) } };
  }
}

/** Connects to the archive at `address` (host:port, or unix:PATH); messages up to `maxResultBytes`. */
export function createArchiveClient(address: string, maxResultBytes: number, internalToken?: string): ArchiveClient {
  return archiveClientOver(createGrpcClient(ArchiveService, address, { maxResultBytes }), internalToken);
}

/**
 * The archive served by this very process (embedded mode), called through its handlers: the same
 * calls, tenants, proof and errors as over gRPC, without a socket, serialization or a copy of the bytes.
 */
export function createInProcessArchiveClient(handlers: ServiceHandlers<typeof ArchiveService>, internalToken?: string): ArchiveClient {
  return archiveClientOver(createInProcessClient(ArchiveService, handlers), internalToken);
}

function archiveClientOver(client: ServiceClient<typeof ArchiveService> & { close(): void }, internalToken: string | undefined): ArchiveClient {
  const proof = internalToken === undefined || internalToken === "" ? {} : { [INTERNAL_TOKEN_METADATA_KEY]: internalToken };
  return {
    async put(tenant, header, bytes, { timeoutMs, signal, onAccepted }) {
      const response = await client.put(putRequests(header, bytes), {
        timeoutMs,
        metadata: { ...proof, [TENANT_METADATA_KEY]: tenant },
        ...(signal ? { signal } : {}),
        ...(onAccepted ? { onAccepted } : {}),
      });
      if (!response.record) throw new TypeError("archive put answered without a record");
      return response.record;
    },
    read(tenant, request, signal) {
      return client.read(request, { metadata: { ...proof, [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    search(tenant, request, signal) {
      return client.search(request, { metadata: { ...proof, [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    delete(tenant, request, signal) {
      return client.delete(request, { metadata: { ...proof, [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    appendTurns(tenant, request, signal) {
      return client.appendTurns(request, { metadata: { ...proof, [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    readTurns(tenant, request, signal) {
      return client.readTurns(request, { metadata: { ...proof, [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    searchTurns(tenant, request, signal) {
      return client.searchTurns(request, { metadata: { ...proof, [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    close: () => client.close(),
  };
}
