import { formatLine, formatNumber } from "../format-number.js";
import type { LineOmission } from "../head-tail-view.js";
import type { ErrorBlock } from "./find-error-blocks.js";

const MAX_LISTED_RANGES = 6;
// renderSelection marks a kept line shown in another form (a collapsed progress bar) this way; it is not hidden.
const SHOWN_IN_FINAL_STATE = "(shown in its final state)";

/** Line numbers (1-based) a view's omissions hide, as a mask over the original's lines. */
function hiddenLines(omissions: readonly LineOmission[], totalLines: number): Uint8Array {
  const hidden = new Uint8Array(totalLines);
  for (const omission of omissions) {
    if (omission.description.endsWith(SHOWN_IN_FINAL_STATE)) continue;
    hidden.fill(1, omission.startLine - 1, omission.endLine);
  }
  return hidden;
}

function range(span: { start: number; end: number }): string {
  return span.end - span.start === 1 ? formatLine(span.start + 1) : `${formatLine(span.start + 1)}–${formatLine(span.end)}`;
}

/** The blocks' line spans, blocks that touch (one ends where the next starts: a run of one-line diagnostics) joined. */
function spansOf(blocks: readonly ErrorBlock[]): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (const block of blocks) {
    const last = spans[spans.length - 1];
    if (last !== undefined && block.start <= last.end) last.end = Math.max(last.end, block.end);
    else spans.push({ start: block.start, end: block.end });
  }
  return spans;
}

/**
 * The error blocks whose key lines (rank 0: what failed, where) a view does
 * not show in full, given the view's omissions.
 */
export function blocksNotShown(blocks: readonly ErrorBlock[], omissions: readonly LineOmission[], totalLines: number): ErrorBlock[] {
  const hidden = hiddenLines(omissions, totalLines);
  return blocks.filter((block) => block.segments.some((segment) => segment.rank === 0 && hidden.subarray(segment.start, segment.end).includes(1)));
}

/**
 * The header line naming the error blocks a view could not show in full, by
 * their line ranges in the original (each range is at least partly within
 * the view's omissions, so recoverable): "[loupe] 7 error blocks; 2 not shown in
 * full: lines 120–140, 300–310". Blocks that touch (a run of one-line
 * diagnostics) share one range. At most six ranges are listed, then how many
 * more ranges. "" when every block is shown.
 */
export function missingBlocksNotice(blocks: readonly ErrorBlock[], notShown: readonly ErrorBlock[]): string {
  if (notShown.length === 0) return "";
  const spans = spansOf(notShown);
  const first = spans[0];
  const noun = spans.length === 1 && first !== undefined && first.end - first.start === 1 ? "line" : "lines";
  const listed = `${noun} ${spans.slice(0, MAX_LISTED_RANGES).map(range).join(", ")}`;
  const more = spans.length > MAX_LISTED_RANGES ? `, and ${formatNumber(spans.length - MAX_LISTED_RANGES)} more` : "";
  const blocksNoun = blocks.length === 1 ? "error block" : "error blocks";
  return `[loupe] ${formatNumber(blocks.length)} ${blocksNoun}; ${formatNumber(notShown.length)} not shown in full: ${listed}${more}`;
}
