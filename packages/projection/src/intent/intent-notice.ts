import { formatNumber } from "../format-number.js";
import type { IntentMatches } from "./match-intent.js";

/** Context lines a notice's pattern continuation asks for around each match. */
export const NOTICE_CONTEXT_LINES = 2;

const escapePattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The notice for matches of the intent a view leaves out: "[loupe] 14 more
 * lines mention `resolve_lookup`; recover with {"result_id":"r_…",
 * "pattern":"resolve_lookup","context_lines":2}", naming the weightiest
 * term some of whose lines are not shown (`shown[i]` is 1 for a kept line).
 * "" when every matched line of every weighted term is shown. Without a
 * result id nothing was saved, and the notice says so instead.
 */
export function moreMatchesNotice(matches: IntentMatches, shown: Uint8Array, resultId: string): string {
  for (const term of matches.terms) {
    if (term.weight === 0) continue;
    const hidden = term.lines.reduce((count, line) => count + (shown[line] === 1 ? 0 : 1), 0);
    if (hidden === 0) continue;
    const count = term.complete ? formatNumber(hidden) : `${formatNumber(hidden)}+`;
    const noun = hidden === 1 && term.complete ? "line mentions" : "lines mention";
    const what = `[loupe] ${count} more ${noun} \`${term.text.replace(/`/g, "'")}\``;
    if (resultId === "") return `${what}; the full result could not be saved`;
    const continuation = JSON.stringify({ result_id: resultId, pattern: escapePattern(term.text), context_lines: NOTICE_CONTEXT_LINES });
    return `${what}; recover with ${continuation}`;
  }
  return "";
}
