import { intentSelection } from "../intent/intent-selection.js";
import { buildLineView } from "../lines/build-line-view.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { LineBlock } from "../lines/select-lines.js";
import { sharesOf } from "../projectors/projection-shares.js";
import type { Projector } from "../projectors/projector.js";

// Markdown headings, "== Section ==", "Section:" lines, and upper-case banner lines name a text's sections.
const SECTION_LINE = /^(#{1,6}\s+\S|={2,}\s*\S.*={2,}\s*$|[A-Z][A-Za-z0-9 _/-]{2,60}:\s*$|[A-Z][A-Z0-9 _-]{4,60}$)/;
const MAX_SECTION_LINES = 60;
const CONTEXT_BEFORE = 2;
const CONTEXT_AFTER = 8;

/**
 * MCP and other text results: the lines the intent points at with a little
 * context (within `shares.intent.generic`), then a preview (head-weighted
 * head and tail, by DEFAULT_SHARES.generic unless the context overrides
 * them) plus the lines that name the text's sections, so the agent can read
 * a section from the saved result by its line range; what is left of the
 * budget goes to more head, then more tail. The notices offer Recover
 * arguments only; they never suggest running the tool again.
 */
export const projectGeneric: Projector = (input, context) => {
  const { lines } = input;
  const total = lines.length;
  const shares = sharesOf(context);
  const describeGap = lineGapNotice(context.resultId);
  const gapTokens = context.counter.count(describeGap(1, total, total).description + "\n") + 1;
  const intent = intentSelection(input, context, {
    counter: context.counter,
    gapTokens,
    maxTokens: Math.floor(context.budgetTokens * shares.intent.generic),
    before: CONTEXT_BEFORE,
    after: CONTEXT_AFTER,
    priority: 0,
  });
  // Head and tail share what the intent's lines leave.
  const room = Math.max(0, context.budgetTokens - intent.tokens);
  const sections: LineBlock[] = [];
  for (let index = 1; index < total - 1 && sections.length < MAX_SECTION_LINES; index++) {
    if (SECTION_LINE.test((lines[index] ?? "").trimEnd())) sections.push({ start: index, end: index + 1, priority: 1, take: "all" });
  }
  const blocks: LineBlock[] = [
    ...intent.blocks,
    { start: 0, end: total - 1, priority: 0, take: "head", maxTokens: Math.floor(room * shares.generic.head) },
    { start: 1, end: total, priority: 0, take: "tail", maxTokens: Math.floor(room * shares.generic.tail) },
    ...sections,
    { start: 0, end: total - 1, priority: 2, take: "head", skip: true },
    { start: 1, end: total, priority: 3, take: "tail", skip: true },
  ];
  return buildLineView(lines, blocks, {
    budgetTokens: context.budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter: context.counter,
    describeGap,
    briefGaps: true,
    ...(intent.selectionNotice ? { selectionNotice: intent.selectionNotice } : {}),
  });
};
