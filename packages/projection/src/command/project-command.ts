import type { TextView } from "../head-tail-view.js";
import { buildLineView, type LineViewOptions } from "../lines/build-line-view.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { Projector, ProjectorContext } from "../projectors/projector.js";
import { utf8Length } from "../utf8-length.js";
import { classifyLines } from "./classify-lines.js";
import { collapseRedraws, hasRedraws } from "./collapse-redraws.js";
import { commandHeader } from "./command-header.js";
import { commandLineBlocks } from "./command-blocks.js";
import { findErrorBlocks } from "./find-error-blocks.js";
import { blocksNotShown, missingBlocksNotice } from "./missing-blocks-notice.js";

// Rounds of "select, name what did not fit, select again with that notice" before settling.
const MAX_NOTICE_ROUNDS = 3;

/**
 * Commands (bash, shell, execute, test runners, compilers, linters): a
 * header with the command, exit status, timeout and duration (a failure
 * never reads as a success), then the evidence wherever it sits: summaries,
 * pytest's short summary block and the last lines first, the first and last
 * error blocks (tracebacks, failing tests' reports, diagnostics with
 * file:line), failing test names, the other error blocks (library frames
 * collapsed first), and only then the head of the ordinary output and more
 * tail. A second header line names the error blocks that did not fit by
 * their line ranges (all within omissions, so recoverable). Progress bars
 * redrawn with "\r" are shown in their final state (such a line is also an
 * omission, recoverable as it was).
 */
export const projectCommand: Projector = (input, context) => {
  const { lines } = input;
  const kinds = classifyLines(lines);
  const errorBlocks = findErrorBlocks(kinds, lines);
  const blocks = commandLineBlocks(kinds, errorBlocks, context.budgetTokens);
  const options: LineViewOptions = {
    budgetTokens: context.budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter: context.counter,
    describeGap: lineGapNotice(context.resultId),
  };
  if (input.text.includes("\r")) options.display = (index) => {
    const line = lines[index] ?? "";
    return hasRedraws(line) ? collapseRedraws(line) : line;
  };
  const main = commandHeader(input);
  const build = (notice: string): TextView => buildLineView(lines, blocks, { ...options, header: notice === "" ? [main] : [main, notice] });
  const noticeFor = (view: TextView): string => missingBlocksNotice(errorBlocks, blocksNotShown(errorBlocks, view.omissions, lines.length));
  const plain = build("");
  let notice = noticeFor(plain);
  // The notice costs room, so blocks shown without it may not fit with it: select again until the notice is true.
  for (let round = 0; notice !== "" && round < MAX_NOTICE_ROUNDS; round++) {
    const view = build(notice);
    const actual = noticeFor(view);
    if (actual === notice) return view;
    const corrected = replaceNotice(view, main, notice, actual);
    if (corrected !== undefined && withinBounds(corrected.text, context)) return corrected;
    notice = actual;
  }
  return plain;
};

// The view with its second header line replaced (or removed when `actual` is "").
function replaceNotice(view: TextView, main: string, notice: string, actual: string): TextView | undefined {
  const prefix = `${main}\n${notice}\n`;
  if (!view.text.startsWith(prefix)) return undefined;
  const header = actual === "" ? `${main}\n` : `${main}\n${actual}\n`;
  return { ...view, text: header + view.text.slice(prefix.length) };
}

function withinBounds(text: string, context: ProjectorContext): boolean {
  return utf8Length(text) <= context.maxViewBytes && context.counter.within(text, context.budgetTokens) !== false;
}
