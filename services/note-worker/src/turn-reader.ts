import { readTurnPages, type Turn } from "@loupe/conversation";
import { createGrpcClient } from "@loupe/grpc";
import { ArchiveService } from "@loupe/proto";

const TENANT_METADATA_KEY = "x-loupe-tenant";

/** What the worker reads of a session's log. */
export interface TurnReader {
  /** Turns startSeq…endSeq (0 = the last) in seq order, plus the stored system prompt and tools when hashes are given. */
  read(
    tenant: string,
    sessionId: string,
    range: { startSeq: number; endSeq: number; systemHash?: string; toolsHash?: string },
    signal?: AbortSignal,
  ): Promise<{ turns: Turn[]; systemPrompt: string; toolsJson: string }>;
  close(): void;
}

/** A reader over the archive's gRPC ReadTurns at `address`. */
export function createTurnReader(address: string, maxResultBytes: number): TurnReader {
  const client = createGrpcClient(ArchiveService, address, { maxResultBytes });
  return {
    async read(tenant, sessionId, range, signal) {
      const options = { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) };
      const { turns, systemPrompt, toolsJson } = await readTurnPages((page) => client.readTurns({ sessionId, ...page }, options), range);
      return { turns, systemPrompt, toolsJson };
    },
    close: () => client.close(),
  };
}
