import { readTurnPages, type Turn } from "@loupe/conversation";
import type { ArchiveClient } from "./create-archive-client.js";

/** A range of a session's turn log, with the hashes of the system prompt and tools to read along. */
export interface TurnLogRange {
  startSeq: number;
  /** 0 = through the last turn. */
  endSeq: number;
  systemHash?: string;
  toolsHash?: string;
}

/**
 * Turns `startSeq`…`endSeq` of a session's log in seq order, paging ReadTurns, plus the stored system
 * prompt and tools when their hashes are given.
 */
export async function readTurnLog(
  archive: ArchiveClient,
  tenant: string,
  sessionId: string,
  range: TurnLogRange,
  signal?: AbortSignal,
): Promise<{ turns: Turn[]; systemPrompt: string; toolsJson: string }> {
  const { turns, systemPrompt, toolsJson } = await readTurnPages((page) => archive.readTurns(tenant, { sessionId, ...page }, signal), range);
  return { turns, systemPrompt, toolsJson };
}
