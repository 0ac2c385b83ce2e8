import { decodeTurnJson, type Turn } from "@loupe/conversation";
import { createGrpcClient } from "@loupe/grpc";
import { ArchiveService } from "@loupe/proto";

const TENANT_METADATA_KEY = "x-loupe-tenant";
const PAGE_BYTES = 8 * 1024 * 1024;

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
      const turns: Turn[] = [];
      let start = Math.max(1, range.startSeq);
      let context = { systemPrompt: "", toolsJson: "" };
      for (let first = true; ; first = false) {
        const page = await client.readTurns(
          { sessionId, startSeq: start, endSeq: range.endSeq, maxBytes: PAGE_BYTES, ...(first ? { systemHash: range.systemHash ?? "", toolsHash: range.toolsHash ?? "" } : {}) },
          { metadata: { [TENANT_METADATA_KEY]: tenant }, ...(signal ? { signal } : {}) },
        );
        if (first) context = { systemPrompt: page.systemPrompt, toolsJson: page.toolsJson };
        for (const stored of page.turns) turns.push(decodeTurnJson(stored.turnJson));
        if (page.nextSeq === 0) return { turns, ...context };
        start = page.nextSeq;
      }
    },
    close: () => client.close(),
  };
}
