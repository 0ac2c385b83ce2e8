import type { TextView } from "../head-tail-view.js";
import type { TokenCounter } from "../token-counter.js";
import { utf8Length } from "../utf8-length.js";
import { briefGapNotice, renderSelection, type DescribeGap } from "./render-selection.js";
import { selectLines, type LineBlock } from "./select-lines.js";

/** Options for {@link buildLineView}. */
export interface LineViewOptions {
  budgetTokens: number;
  maxViewBytes: number;
  counter: TokenCounter;
  describeGap: DescribeGap;
  /** Notice lines placed first (e.g. the command, its exit status and duration). */
  header?: readonly string[];
  /** The text shown for a kept line (e.g. a progress bar collapsed to its final state). */
  display?: (index: number) => string;
  /** A notice about what the selection left out (e.g. matches of the intent), placed after the header; "" for none. */
  selectionNotice?: (kept: Uint8Array) => string;
  /** Gap notices after the first are brief (see briefGapNotice): more of the budget goes to lines. */
  briefGaps?: boolean;
  /**
   * Tokens kept for the selection notice from the first selection on (a notice known to be long); default 0.
   * When the notice then says nothing, the lines are selected once more without it.
   */
  selectionNoticeTokens?: number;
}

const MAX_ATTEMPTS = 4;

/**
 * Builds a view of whole lines from a projector's blocks: selects within the
 * budget, renders kept lines and one notice per omitted run, then checks the
 * exact token count of the result (per-line counts can differ slightly from
 * the joined text's) and selects again with less room if it is over.
 */
export function buildLineView(lines: readonly string[], blocks: readonly LineBlock[], options: LineViewOptions): TextView {
  const header = options.header ?? [];
  const headerText = header.map((line) => line + "\n").join("");
  // A range notice with the largest numbers this text can have: a gap never costs more (notices naming
  // a directory may cost less, which only leaves room unused).
  const widest = options.describeGap(Math.max(1, lines.length - 1), lines.length, lines.length).description + "\n";
  const gapTokens = options.counter.count(widest) + 1;
  const gapBytes = utf8Length(widest);
  const widestBrief = briefGapNotice(Math.max(1, lines.length - 1), lines.length, "{}") + "\n";
  const later =
    options.briefGaps === true
      ? { laterGapTokens: Math.min(gapTokens, options.counter.count(widestBrief) + 1), laterGapBytes: Math.min(gapBytes, utf8Length(widestBrief)) }
      : {};
  let budgetTokens = options.budgetTokens;
  // Room kept for the selection notice: what the caller asks for, or once a selection turned out to need more.
  let noticeTokens = options.selectionNoticeTokens ?? 0;
  let noticeBytes = noticeTokens * 8;
  let noticeGrown = false;
  let noticeReleased = false;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const selection = selectLines({
      lines,
      blocks,
      budgetTokens,
      maxViewBytes: options.maxViewBytes,
      counter: options.counter,
      reservedTokens: (headerText === "" ? 0 : options.counter.count(headerText)) + noticeTokens,
      reservedBytes: utf8Length(headerText) + noticeBytes,
      gapTokens,
      gapBytes,
      ...later,
      ...(options.display ? { display: options.display } : {}),
    });
    const notice = options.selectionNotice?.(selection.kept) ?? "";
    // Room kept for a notice that turned out to say nothing goes back to lines (once).
    if (notice === "" && noticeTokens > 0 && !noticeReleased) {
      noticeReleased = true;
      noticeTokens = 0;
      noticeBytes = 0;
      attempt--;
      continue;
    }
    if (notice !== "" && !noticeGrown) {
      const needed = options.counter.count(notice + "\n") + 2;
      if (needed > noticeTokens) {
        noticeGrown = true;
        noticeTokens = needed;
        noticeBytes = Math.max(noticeBytes, utf8Length(notice) + 8);
        attempt--;
        continue;
      }
    }
    const shown = notice === "" ? header : [...header, notice];
    const view = renderSelection(lines, selection.kept, {
      header: shown,
      describeGap: options.describeGap,
      ...(options.briefGaps === true ? { briefGaps: true } : {}),
      ...(options.display ? { display: options.display } : {}),
    });
    const tokens = options.counter.within(view.text, options.budgetTokens);
    if (tokens !== false && utf8Length(view.text) <= options.maxViewBytes) return { ...view, unchanged: false };
    const over = options.counter.count(view.text) - options.budgetTokens;
    budgetTokens -= Math.max(over, 1) + Math.ceil(budgetTokens * 0.02);
  }
  // Nothing fits reliably: the header and one notice for everything, or the notice alone if the header is too long.
  const none = new Uint8Array(lines.length);
  const withHeader = renderSelection(lines, none, { header, describeGap: options.describeGap });
  if (options.counter.within(withHeader.text, options.budgetTokens) !== false) return { ...withHeader, unchanged: false };
  return { ...renderSelection(lines, none, { header: [], describeGap: options.describeGap }), unchanged: false };
}
