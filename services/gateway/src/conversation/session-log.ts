import { decodeTurnJson, type Turn } from "@loupe/conversation";
import type { ArchiveClient } from "../archive-client.js";

/** Bytes of turns per ReadTurns answer, well under the gRPC message limit. */
const PAGE_BYTES = 8 * 1024 * 1024;

/** Turns of a log range plus the log's last seq and, when asked by hash, the session's system prompt and tools. */
export interface LogRead {
  turns: Turn[];
  lastSeq: number;
  systemPrompt: string;
  toolsJson: string;
}

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
  const turns: Turn[] = [];
  let start = Math.max(1, request.startSeq);
  let first = true;
  const read: LogRead = { turns, lastSeq: 0, systemPrompt: "", toolsJson: "" };
  for (;;) {
    const page = await archive.readTurns(
      tenant,
      { sessionId: request.sessionId, startSeq: start, endSeq: request.endSeq, maxBytes: PAGE_BYTES, ...(first ? { systemHash: request.systemHash ?? "", toolsHash: request.toolsHash ?? "" } : {}) },
      signal,
    );
    if (first) Object.assign(read, { lastSeq: page.lastSeq, systemPrompt: page.systemPrompt, toolsJson: page.toolsJson });
    first = false;
    for (const stored of page.turns) turns.push(decodeTurnJson(stored.turnJson));
    if (page.nextSeq === 0) return read;
    start = page.nextSeq;
  }
}
