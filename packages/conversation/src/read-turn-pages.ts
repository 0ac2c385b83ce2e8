import { decodeTurnJson } from "./turn-json.js";
import type { Turn } from "./turn.js";

/** Bytes of turns per ReadTurns answer, well under the gRPC message limit. */
export const TURN_PAGE_BYTES = 8 * 1024 * 1024;

/** One ReadTurns request of a paged read (the hashes only on the first page). */
export interface TurnPageRequest {
  startSeq: number;
  endSeq: number;
  maxBytes: number;
  systemHash?: string;
  toolsHash?: string;
}

/** What a ReadTurns answer holds, as far as paging needs it. */
export interface TurnPage {
  turns: ReadonlyArray<{ turnJson: Uint8Array }>;
  /** The seq to read next; 0 when the range is done. */
  nextSeq: number;
  lastSeq: number;
  systemPrompt: string;
  toolsJson: string;
}

/** Turns of a log range in seq order, the log's last seq and, when asked by hash, the session's system prompt and tools. */
export interface LogRead {
  turns: Turn[];
  lastSeq: number;
  systemPrompt: string;
  toolsJson: string;
}

/**
 * Reads turns `startSeq`…`endSeq` (0 = the last) of a session's log through
 * `readPage` (one ReadTurns call), page by page, and decodes them. The system
 * prompt and tools are asked for (by hash) on the first page only. The paging
 * itself does no I/O: the caller's `readPage` does.
 */
export async function readTurnPages(
  readPage: (request: TurnPageRequest) => Promise<TurnPage>,
  range: { startSeq: number; endSeq: number; systemHash?: string; toolsHash?: string },
): Promise<LogRead> {
  const read: LogRead = { turns: [], lastSeq: 0, systemPrompt: "", toolsJson: "" };
  let start = Math.max(1, range.startSeq);
  for (let first = true; ; first = false) {
    const page = await readPage({
      startSeq: start,
      endSeq: range.endSeq,
      maxBytes: TURN_PAGE_BYTES,
      ...(first ? { systemHash: range.systemHash ?? "", toolsHash: range.toolsHash ?? "" } : {}),
    });
    if (first) Object.assign(read, { lastSeq: page.lastSeq, systemPrompt: page.systemPrompt, toolsJson: page.toolsJson });
    for (const stored of page.turns) read.turns.push(decodeTurnJson(stored.turnJson));
    if (page.nextSeq === 0) return read;
    start = page.nextSeq;
  }
}
