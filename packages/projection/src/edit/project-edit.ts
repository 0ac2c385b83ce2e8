import { buildLineView } from "../lines/build-line-view.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { LineBlock } from "../lines/select-lines.js";
import type { Projector } from "../projectors/projector.js";

// What an edit or coordination tool says about its outcome and what must happen next.
const STATUS_LINE =
  /\b(applied|failed|failure|error|success(ful(ly)?)?|succeeded|updated|created|deleted|modified|wrote|written|conflicts?|rejected|hunks?|no changes|not found|must|please|next|todo|retry|blocked|done|pending|assigned)\b/i;

/**
 * Edit and coordination tools: oversized text is saved and the preview keeps
 * the status lines (applied or failed, what must happen next) wherever they
 * sit, then the head and tail.
 */
export const projectEdit: Projector = (input, context) => {
  const { lines } = input;
  const total = lines.length;
  const status: LineBlock[] = [];
  for (let index = 0; index < total; index++) {
    if (STATUS_LINE.test(lines[index] ?? "")) status.push({ start: index, end: index + 1, priority: 0, take: "all" });
  }
  const blocks: LineBlock[] = [
    { start: 0, end: Math.min(total, 3), priority: 0, take: "head" },
    { start: Math.max(0, total - 3), end: total, priority: 0, take: "tail" },
    ...status.slice(0, 40),
    ...status.slice(40).map((block) => ({ ...block, priority: 2 })),
    { start: 0, end: total - 1, priority: 1, take: "head", maxTokens: Math.floor(context.budgetTokens * 0.4) },
    { start: 1, end: total, priority: 1, take: "tail" },
  ];
  const header = input.isError ? ["[loupe] the edit failed (is_error)"] : [];
  return buildLineView(lines, blocks, {
    budgetTokens: context.budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter: context.counter,
    describeGap: lineGapNotice(context.resultId),
    briefGaps: true,
    header,
  });
};
