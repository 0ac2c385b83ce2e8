import { intentSelection } from "../intent/intent-selection.js";
import { buildLineView } from "../lines/build-line-view.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { LineBlock } from "../lines/select-lines.js";
import { projectGeneric } from "../generic/project-generic.js";
import { sharesOf } from "../projectors/projection-shares.js";
import type { Projector } from "../projectors/projector.js";
import { findTurns, type TurnSpan } from "./find-turns.js";

const MAX_LISTED_ADDRESSES = 30;

function addresses(turns: readonly TurnSpan[]): string {
  const listed = turns.slice(0, MAX_LISTED_ADDRESSES).map((turn) => `turn:${String(turn.number)} (lines ${String(turn.start + 1)}–${String(turn.end)})`);
  const more = turns.length > MAX_LISTED_ADDRESSES ? `, and ${String(turns.length - MAX_LISTED_ADDRESSES)} more` : "";
  return listed.join(", ") + more;
}

/**
 * Conversation reads: the task anchor (the first user message) whole, then
 * the most recent turns, newest first, while they fit; a header names the
 * omitted turns by address and line range. Text without turn markers is
 * projected as generic text.
 */
export const projectConversation: Projector = (input, context) => {
  const turns = findTurns(input.lines);
  if (turns.length < 2) return projectGeneric(input, context);
  const anchor = turns.find((turn) => turn.role === "user") ?? turns[0];
  const blocks: LineBlock[] = [];
  if (anchor) {
    blocks.push({ start: anchor.start, end: anchor.end, priority: 0, take: "head", maxTokens: Math.floor(context.budgetTokens * 0.35) });
  }
  // Recent turns whole, newest first; a turn too large to fit whole keeps its end.
  const recent = [...turns].reverse().filter((turn) => turn !== anchor);
  recent.forEach((turn, order) => blocks.push({ start: turn.start, end: turn.end, priority: 1 + order, take: "all", group: "recent" }));
  if (recent[0]) blocks.push({ start: recent[0].start, end: recent[0].end, priority: 1, take: "tail" });
  // After the task anchor, the lines the intent points at (with a little context), before the recent turns.
  const describeGap = lineGapNotice(context.resultId);
  const gapTokens = context.counter.count(describeGap(input.lines.length, input.lines.length, input.lines.length).description + "\n") + 1;
  const intent = intentSelection(input, context, {
    counter: context.counter,
    gapTokens,
    maxTokens: Math.floor(context.budgetTokens * sharesOf(context).intent.conversation),
    before: 1,
    after: 3,
    priority: 0.5,
  });
  blocks.push(...intent.blocks);
  const selectionHeader = (omitted: readonly TurnSpan[]): string[] =>
    omitted.length === 0 ? [] : [`[loupe] ${String(turns.length)} turns; not shown whole: ${addresses(omitted)}`];
  // First pass decides which turns survive; the header then names the others (it is re-checked against the budget).
  const options = {
    budgetTokens: context.budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter: context.counter,
    describeGap,
    briefGaps: true,
    ...(intent.selectionNotice ? { selectionNotice: intent.selectionNotice } : {}),
  };
  const draft = buildLineView(input.lines, blocks, { ...options, header: selectionHeader(turns) });
  const omittedLines = new Set<number>();
  for (const omission of draft.omissions) for (let line = omission.startLine; line <= omission.endLine; line++) omittedLines.add(line);
  const omitted = turns.filter((turn) => [...Array(turn.end - turn.start).keys()].some((offset) => omittedLines.has(turn.start + offset + 1)));
  return buildLineView(input.lines, blocks, { ...options, header: selectionHeader(omitted) });
};
