import type { TextView } from "../../head-tail-view.js";
import { lineGapNotice } from "../../lines/gap-notice.js";
import type { TokenCounter } from "../../token-counter.js";

// renderSelection's mark for a kept line shown in its final state: that line is shown, not hidden.
const SHOWN_IN_FINAL_STATE = "(shown in its final state)";

/**
 * Test support: the 1-based numbers of the original's lines a view shows
 * (every line not inside a gap omission).
 */
export function shownLineNumbers(view: TextView, totalLines: number): Set<number> {
  const hidden = new Uint8Array(totalLines + 1);
  for (const omission of view.omissions) {
    if (!omission.description.endsWith(SHOWN_IN_FINAL_STATE)) hidden.fill(1, omission.startLine, omission.endLine + 1);
  }
  const shown = new Set<number>();
  for (let line = 1; line <= totalLines; line++) if (hidden[line] === 0) shown.add(line);
  return shown;
}

/** Test support: the view's text without Loupe's own notice lines. */
export function viewBody(view: TextView): string {
  return view.text
    .split("\n")
    .filter((line) => !line.startsWith("[loupe"))
    .join("\n");
}

/**
 * Test support: whether lines (given by 1-based number) "fit in half the
 * budget": their tokens plus one gap notice per separate run of them, plus
 * one more, within half of `budgetTokens`.
 */
export function fitsInHalf(lines: readonly string[], numbers: readonly number[], budgetTokens: number, counter: TokenCounter, resultId: string): boolean {
  const notice = lineGapNotice(resultId)(lines.length, lines.length, lines.length).description + "\n";
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  let runs = 0;
  let tokens = 0;
  sorted.forEach((line, index) => {
    if (index === 0 || sorted[index - 1] !== line - 1) runs++;
    tokens += counter.count(lines[line - 1] ?? "");
  });
  return tokens + (runs + 1) * counter.count(notice) <= budgetTokens / 2;
}
