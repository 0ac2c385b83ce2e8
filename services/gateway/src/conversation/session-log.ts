import { readTurnPages, type LogRead } from "@loupe/conversation";
import type { ArchiveClient } from "@loupe/archive-client";

export type { LogRead } from "@loupe/conversation";

/**
 * Reads turns `startSeq`…`endSeq` (0 = the last) of a session's log, page by page, in seq order.
 * Reads the archive directly, so it sees every accepted turn however far the note-worker lags.
 */
export async function readLog(
  archive: ArchiveClient,
  tenant: string,
  request: { sessionId: string; startSeq: number; endSeq: number; systemHash?: string; toolsHash?: string },
  signal?: AbortSignal,
): Promise<LogRead> {
  return readTurnPages((page) => archive.readTurns(tenant, { sessionId: request.sessionId, ...page }, signal), request);
}
