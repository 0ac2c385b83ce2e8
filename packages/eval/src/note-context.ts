import type { LoupeClient } from "@loupe/client";
import { turnAddress } from "@loupe/conversation";

/** The distinct `turn:<seq>` addresses a note cites, in order of seq. */
export function citedSeqs(note: string): number[] {
  const seqs = new Set<number>();
  for (const match of note.matchAll(/\bturn:(\d{1,9})\b/g)) seqs.add(Number(match[1]));
  return [...seqs].sort((a, b) => a - b);
}

/** Reads a turn by seq, whole. */
export interface TurnReader {
  read(seq: number): Promise<string>;
}

// Pages one ReadHistory answer may take for one turn before the read gives up.
const MAX_PAGES_PER_TURN = 50;
const READ_BUDGET_TOKENS = 50_000;

/**
 * Reads turns by address through ReadHistory, whole (a long turn comes in
 * pages: the cursor is followed while it stays in the turn), and keeps what it
 * read for the session, so each address is read once.
 */
export function createTurnReader(client: LoupeClient, sessionId: string): TurnReader {
  const cache = new Map<number, string>();
  return {
    read: async (seq) => {
      const cached = cache.get(seq);
      if (cached !== undefined) return cached;
      const pages: string[] = [];
      let answer = await client.readHistory({ sessionId, address: turnAddress(seq), budgetTokens: READ_BUDGET_TOKENS });
      pages.push(answer.text);
      for (let page = 1; answer.nextCursor !== "" && answer.startSeq <= seq && page < MAX_PAGES_PER_TURN; page++) {
        answer = await client.readHistory({ sessionId, cursor: answer.nextCursor, budgetTokens: READ_BUDGET_TOKENS });
        if (answer.startSeq > seq) break;
        pages.push(answer.text);
      }
      const text = pages.join("\n");
      cache.set(seq, text);
      return text;
    },
  };
}
