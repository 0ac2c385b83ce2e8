import type { TextView } from "../head-tail-view.js";
import { intentSelection } from "../intent/intent-selection.js";
import { buildLineView, type LineViewOptions } from "../lines/build-line-view.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { Projector, ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { sharesOf, type ProjectionShares } from "../projectors/projection-shares.js";
import { utf8Length } from "../utf8-length.js";
import { classifyLines, type LineKind } from "./classify-lines.js";
import { collapseRedraws, hasRedraws } from "./collapse-redraws.js";
import { commandHeader } from "./command-header.js";
import { commandLineBlocks, lastLinesStart } from "./command-blocks.js";
import { evidenceTokens } from "./evidence-tokens.js";
import { findErrorBlocks, type ErrorBlock } from "./find-error-blocks.js";
import { blocksNotShown, missingBlocksNotice } from "./missing-blocks-notice.js";

// Rounds of "select, name what did not fit, select again with that notice" before settling.
const MAX_NOTICE_ROUNDS = 3;
// The intent's lines come after the verdicts and the first and last error blocks (invariant 5), before the rest.
const P_INTENT = 0.5;
const CONTEXT_BEFORE = 2;
const CONTEXT_AFTER = 6;
// The shares of the budget (head before the error blocks, margin, when errors come first) are DEFAULT_SHARES.command
// unless the context overrides them (measured on shared/corpus, see the corpus test).

/**
 * Commands (bash, shell, execute, test runners, compilers, linters): a
 * header with the command, exit status, timeout and duration (a failure
 * never reads as a success), then the evidence wherever it sits: summaries,
 * pytest's short summary block and the last five lines first, the first and
 * last error blocks (tracebacks, failing tests' reports, diagnostics with
 * file:line), failing test names, the other error blocks (key lines first,
 * then their detail; library frames collapsed first), then more head and
 * tail. Every error line is kept when the error lines fit in half the
 * budget; the head of the output only takes what they leave (up to 65% for
 * script output, 40% for a test run). These are DEFAULT_SHARES.command; the
 * context's `shares` may replace them. When they do not fit, the head keeps
 * that share ahead of them. A second header line names the error blocks not
 * shown in full by their line ranges (all within omissions, so
 * recoverable). Progress bars redrawn with "\r" are shown in their final
 * state (such a line is also an omission, recoverable as it was).
 */
export const projectCommand: Projector = (input, context) => {
  const { lines } = input;
  const kinds = classifyLines(lines, { text: input.text });
  const errorBlocks = findErrorBlocks(kinds, lines);
  const describeGap = lineGapNotice(context.resultId);
  const main = commandHeader(input);
  const shares = sharesOf(context).command;
  const gapTokens = context.counter.count(describeGap(lines.length, lines.length, lines.length).description + "\n") + 1;
  const intent = intentSelection(input, context, {
    counter: context.counter,
    gapTokens,
    maxTokens: Math.floor(context.budgetTokens * sharesOf(context).intent.command),
    before: CONTEXT_BEFORE,
    after: CONTEXT_AFTER,
    priority: P_INTENT,
  });
  // The head before the error blocks takes less when the intent's lines claim part of the budget.
  // Where the last lines kept as verdicts start: the blocks keep them, the head's share leaves room for them.
  const tailStart = lastLinesStart(lines);
  const headFirst = Math.max(0, headFirstTokens(input, context, { kinds, errorBlocks, tailStart }, main, shares) - intent.tokens);
  const blocks = [
    ...intent.blocks,
    ...commandLineBlocks(lines, kinds, errorBlocks, { budgetTokens: context.budgetTokens, headFirstTokens: headFirst, tailStart, shares }),
  ];
  const options: LineViewOptions = {
    budgetTokens: context.budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter: context.counter,
    describeGap,
    briefGaps: true,
    ...(intent.selectionNotice ? { selectionNotice: intent.selectionNotice } : {}),
  };
  if (input.text.includes("\r"))
    options.display = (index) => {
      const line = lines[index] ?? "";
      return hasRedraws(line) ? collapseRedraws(line) : line;
    };
  const build = (notice: string): TextView => buildLineView(lines, blocks, { ...options, header: notice === "" ? [main] : [main, notice] });
  const noticeFor = (view: TextView): string => missingBlocksNotice(errorBlocks, blocksNotShown(errorBlocks, view.omissions, lines.length));
  const plain = build("");
  let notice = noticeFor(plain);
  // The notice costs room, so blocks shown without it may not fit with it: select again until the notice is true.
  for (let round = 0; notice !== "" && round < MAX_NOTICE_ROUNDS; round++) {
    const view = build(notice);
    // With no room for the notice, the engine falls back to a view that may not hold the budget: keep the plain one.
    if (!withinBounds(view.text, context)) break;
    const actual = noticeFor(view);
    if (actual === notice) return view;
    const corrected = replaceNotice(view, main, notice, actual);
    if (corrected !== undefined && withinBounds(corrected.text, context)) return corrected;
    notice = actual;
  }
  return plain;
};

/**
 * How much of the head comes before the error blocks. When the error lines
 * (every error block's key lines and their notices) fit in half the budget,
 * the head takes only what the evidence (header, verdicts, last lines, error
 * lines) leaves, up to a share, so every error line stays. When they do not,
 * the head keeps its share ahead of them (the first and last blocks then come
 * before the others): on real agent runs, what a script printed first holds
 * more of the next step's evidence than a surplus of tracebacks. Script
 * output gets a larger share than a test run's, whose failures agents act on.
 */
function headFirstTokens(
  input: ProjectorInput,
  context: ProjectorContext,
  { kinds, errorBlocks, tailStart }: { kinds: readonly LineKind[]; errorBlocks: readonly ErrorBlock[]; tailStart: number },
  main: string,
  shares: ProjectionShares["command"],
): number {
  const { budgetTokens, counter } = context;
  const isTestRun = kinds.some((kind) => kind === "summary" || kind === "summary_block" || kind === "failure");
  const share = budgetTokens * (isTestRun ? shares.testRunHead : shares.scriptHead);
  const noticeTokens = counter.count(lineGapNotice(context.resultId)(input.lines.length, input.lines.length, input.lines.length).description + "\n");
  const evidence = evidenceTokens(input.lines, kinds, errorBlocks, { counter, limit: budgetTokens, noticeTokens, tailStart });
  // Invariant 5: when the error evidence is large, the first and last error blocks and the summaries
  // come before any ordinary output (measured on the corpus, a head share first would keep slightly
  // more next-step evidence for scripts, and less for test runs; the invariant decides).
  if (evidence.errors > budgetTokens * shares.errorsFirstAbove) return 0;
  const reserved = counter.count(main + "\n") + evidence.all + Math.ceil(budgetTokens * shares.margin);
  return Math.max(0, Math.min(share, budgetTokens - reserved));
}

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
