import { buildLineView } from "./lines/build-line-view.js";
import { lineGapNotice } from "./lines/gap-notice.js";
import type { LineBlock } from "./lines/select-lines.js";
import { sharesOf, type ProjectionSharesOverride } from "./projectors/projection-shares.js";
import { splitLines } from "./split-lines.js";
import type { TokenCounter } from "./token-counter.js";
import { utf8Length } from "./utf8-length.js";

/** One run of original lines a view left out. */
export interface LineOmission {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** One line a model reads. */
  description: string;
  /** Sent as it is to Recover, returns exactly these lines; "" when nothing was saved. */
  continuationJson: string;
}

/** A first view of a text. */
export interface TextView {
  text: string;
  omissions: LineOmission[];
  /** True when the text already fit and comes back as it was. */
  unchanged: boolean;
}

/** Options for {@link projectHeadTail}. */
export interface HeadTailOptions {
  budgetTokens: number;
  /** Hard cap on the view's UTF-8 bytes. */
  maxViewBytes: number;
  counter: TokenCounter;
  /** The saved result's id; "" when the result could not be saved (no continuation is offered). */
  resultId: string;
  /** Share of the budget for the head (the rest goes to the tail first, then back to the head). Default `shares.headTail.head`. */
  headShare?: number;
  /** Shares replacing DEFAULT_SHARES (here `headTail.head`, 0.65 by default); validated. */
  shares?: ProjectionSharesOverride;
  /** Names what the lines are (a file path) in the notice. */
  label?: string;
}

/**
 * Keeps whole lines from the head and tail of `text` within the token budget
 * and byte cap, replacing the middle with one notice line that names the
 * omitted range and how to recover it. Text that already fits comes back
 * unchanged. Pure and deterministic; counts tokens only of lines it considers.
 */
export function projectHeadTail(text: string, options: HeadTailOptions): TextView {
  const { budgetTokens, maxViewBytes, counter, resultId } = options;
  if (text.length <= maxViewBytes && utf8Length(text) <= maxViewBytes && counter.within(text, budgetTokens) !== false) {
    return { text, omissions: [], unchanged: true };
  }
  const lines = splitLines(text);
  const describeGap = lineGapNotice(resultId, options.label ?? "");
  const share = options.headShare ?? sharesOf(options).headTail.head;
  // Shares of what is left after one notice line; the head takes back what the tail leaves.
  const room = Math.max(0, budgetTokens - counter.count(describeGap(lines.length, lines.length, lines.length).description + "\n"));
  const blocks: LineBlock[] = [
    { start: 0, end: lines.length - 1, priority: 0, take: "head", maxTokens: Math.floor(room * share) },
    { start: 1, end: lines.length, priority: 0, take: "tail" },
    { start: 0, end: lines.length - 1, priority: 1, take: "head" },
  ];
  return buildLineView(lines, blocks, { budgetTokens, maxViewBytes, counter, describeGap });
}
