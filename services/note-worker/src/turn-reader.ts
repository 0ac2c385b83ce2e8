import { readTurnLog, type ArchiveClient } from "@loupe/archive-client";
import type { Turn } from "@loupe/conversation";

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

/** A {@link TurnReader} over the archive client. */
export function createTurnReader(archive: ArchiveClient): TurnReader {
  return {
    read: (tenant, sessionId, range, signal) => readTurnLog(archive, tenant, sessionId, range, signal),
    close: () => archive.close(),
  };
}
