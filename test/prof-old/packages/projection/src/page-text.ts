import { splitLines } from "./split-lines.js";
import type { TokenCounter } from "./token-counter.js";

/** One page cut from the front of a text. */
export interface TextPage {
  /** The served prefix of the text. */
  text: string;
  /** True when the page is whole lines (it ends after "\n", or at the end of a complete text). */
  wholeLines: boolean;
}

/**
 * Cuts the front of `text` to at most `budgetTokens`: as many whole lines as
 * fit, or, when even the first line does not fit, the longest prefix of it
 * that does (never splitting a surrogate pair). Always serves at least one
 * character of a non-empty text, so paging advances. `complete` says the text
 * ends where the requested range ends; otherwise its last unterminated line is
 * treated as cut off and not served as a whole line.
 */
export function pageText(text: string, budgetTokens: number, counter: TokenCounter, complete: boolean): TextPage {
  const lines = splitLines(text);
  let served = "";
  let tokens = 0;
  for (const [index, line] of lines.entries()) {
    const isCutOff = !complete && index === lines.length - 1 && !line.endsWith("\n");
    if (isCutOff) break;
    const lineTokens = counter.within(line, budgetTokens - tokens);
    if (lineTokens === false) break;
    tokens += lineTokens;
    served += line;
  }
  if (served !== "") return { text: served, wholeLines: true };
  return { text: longestPrefixWithin(lines[0] ?? "", budgetTokens, counter), wholeLines: false };
}

function longestPrefixWithin(line: string, budgetTokens: number, counter: TokenCounter): string {
  let low = 1;
  let high = line.length;
  // Binary search on UTF-16 length; each candidate is moved off a surrogate pair's middle.
  const cut = (length: number): number => {
    const code = line.charCodeAt(length - 1);
    return code >= 0xd800 && code <= 0xdbff && length < line.length ? length + 1 : length;
  };
  let best = cut(Math.min(1, line.length));
  while (low <= high) {
    const middle = (low + high) >> 1;
    const length = cut(middle);
    if (counter.within(line.slice(0, length), budgetTokens) !== false) {
      best = Math.max(best, length);
      low = middle + 1;
    } else high = middle - 1;
  }
  return line.slice(0, best);
}
