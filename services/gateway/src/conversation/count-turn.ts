import { renderTurnText, type Turn } from "@loupe/conversation";
import type { TokenCounter } from "@loupe/projection";

/** Text longer than this is estimated, not tokenized, on the append path. */
const EXACT_COUNT_CHARS = 32 * 1024;
/** Characters per token assumed for an estimate (low, so estimates err large). */
const ESTIMATE_CHARS_PER_TOKEN = 3.2;

/** Tokens of a text: exact up to 32 K characters, a generous estimate beyond. */
export function countText(counter: TokenCounter, text: string): number {
  return text.length <= EXACT_COUNT_CHARS ? counter.count(text) : Math.ceil(text.length / ESTIMATE_CHARS_PER_TOKEN);
}

/** Tokens of a turn as it reads in history. */
export function countTurn(counter: TokenCounter, turn: Turn): number {
  return countText(counter, renderTurnText(turn));
}
