import type { MessageInitShape } from "@bufbuild/protobuf";
import { createGrpcClient } from "@loupe/grpc";
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

/** Bytes per Put chunk: small enough to stream, large enough to keep calls few. */
export const PUT_CHUNK_BYTES = 256 * 1024;
const TENANT_METADATA_KEY = "x-loupe-tenant";

/** The gateway's view of the archive service. */
export interface ArchiveClient {
  /** Streams one result to the archive; rejects with AppError (deadline_exceeded past `timeoutMs`, unavailable when down). */
  put(tenant: string, header: MessageInitShape<typeof PutHeaderSchema>, bytes: Uint8Array, timeoutMs: number): Promise<ResultRecord>;
  read(tenant: string, request: MessageInitShape<typeof ReadRequestSchema>, signal?: AbortSignal): Promise<ReadResponse>;
  search(tenant: string, request: MessageInitShape<typeof SearchRequestSchema>, signal?: AbortSignal): Promise<SearchResponse>;
  /** Deletes results of `tenant` (one, a session's, or all); rejects with AppError as the archive answered. */
  delete(tenant: string, request: MessageInitShape<typeof DeleteRequestSchema>, signal?: AbortSignal): Promise<DeleteResponse>;
  appendTurns(tenant: string, request: MessageInitShape<typeof ArchiveServiceAppendTurnsRequestSchema>, signal?: AbortSignal): Promise<ArchiveServiceAppendTurnsResponse>;
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

/** Connects to the archive at host:port. */
export function createArchiveClient(address: string, maxResultBytes: number): ArchiveClient {
  const client = createGrpcClient(ArchiveService, address, { maxResultBytes });
  return {
    async put(tenant, header, bytes, timeoutMs) {
      const response = await client.put(putRequests(header, bytes), { timeoutMs, metadata: { [TENANT_METADATA_KEY]: tenant } });
      if (!response.record) throw new TypeError("archive put answered without a record");
      return response.record;
    },
    read(tenant, request, signal) {
      return client.read(request, { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    search(tenant, request, signal) {
      return client.search(request, { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    delete(tenant, request, signal) {
      return client.delete(request, { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    appendTurns(tenant, request, signal) {
      return client.appendTurns(request, { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    readTurns(tenant, request, signal) {
      return client.readTurns(request, { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    searchTurns(tenant, request, signal) {
      return client.searchTurns(request, { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) });
    },
    close: () => client.close(),
  };
}
