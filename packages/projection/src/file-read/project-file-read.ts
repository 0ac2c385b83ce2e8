import { intentSelection } from "../intent/intent-selection.js";
import { buildLineView } from "../lines/build-line-view.js";
import { withMapNotice } from "../lines/map-notice.js";
import type { LineBlock } from "../lines/select-lines.js";
import { sharesOf } from "../projectors/projection-shares.js";
import type { Projector } from "../projectors/projector.js";
import { createCachingCounter } from "./caching-counter.js";
import { chooseOutline } from "./choose-outline.js";
import { reachWithin } from "./choose-within.js";
import { declarationsByIntent } from "./declarations-by-intent.js";
import { declarationMapNotice, declarationsOf, OUTPUT_LINES, type Declaration, type MapNumbering } from "./declaration-map.js";
import { fileGapNotice } from "./file-gap-notice.js";
import { outlineLanguageOf } from "./outline-level.js";
import { docstringsNearEnds, endPassingOver, linesBetween } from "./pass-over.js";
import { readSourceOf, type ReadSource } from "./read-source.js";

/**
 * How a file read's budget (after one notice) is shared (ProjectionShares
 * `fileRead`): the outline gets its share only when the room holds at least
 * this many gap notices (each kept outline line in the middle adds one, about
 * 50 tokens with a result id, so at small budgets head lines carry more
 * evidence per token); the rest goes to the head and tail in their
 * proportions, and what is left to the head.
 */
export const FILE_READ_OUTLINE_MIN_GAPS = 20;

// The fewest tokens a map entry costs: its line number, a label of one token or more, and ", ".
const MIN_ENTRY_TOKENS = 3;

// Around a line the intent points at: agents read on from a little above it to well below it.
const CONTEXT_BEFORE = 3;
const CONTEXT_AFTER = 20;

/**
 * Projects a file read (TOOL_KIND_FILE_READ, or a shell `cat`/`sed -n`/`head`/
 * `tail`/`nl` of a file): whole lines verbatim, the head and the tail, and an
 * outline of the declarations in between (def, class, function, interface,
 * export … lines, outermost first) kept where they stand, so the omitted
 * middle becomes several gaps, each named with the file and its lines and, when
 * the agent read with its own tool (path + offset/limit, view_range,
 * start_line/end_line), that tool's call for the same lines. One notice line
 * first maps the declarations left out with their line numbers (see
 * declarationMapNotice; at most `fileRead.map` of the budget, or
 * `fileRead.intentMap` when the intent's lines are in the view). Pure and
 * deterministic.
 */
export const projectFileRead: Projector = (input, context) => {
  const { lines } = input;
  const { budgetTokens } = context;
  const shares = sharesOf(context).fileRead;
  const counter = createCachingCounter(context.counter);
  const source = readSourceOf(input);
  const describeGap = fileGapNotice(context.resultId, source);
  const total = lines.length;
  const gapTokens = counter.count(describeGap(1, total, total).description + "\n") + 1;
  const intent = intentSelection(input, context, {
    counter,
    gapTokens,
    maxTokens: Math.floor(Math.max(0, budgetTokens - gapTokens) * sharesOf(context).intent.fileRead),
    before: CONTEXT_BEFORE,
    after: CONTEXT_AFTER,
    priority: 0,
  });
  // The file's declarations, found once for the map and the outline (only when either is wanted).
  let found: Declaration[] | undefined;
  const declarationsOfFile = (): Declaration[] => (found ??= declarationsOf(lines, source.path, source.numbered));
  // The intent's windows stand in for the outline, and share the middle with the map.
  const guided = intent.chosen.length > 0;
  // The map of omitted declarations (one notice line) is kept room for before any line: at most its share.
  const mapShare = guided ? shares.intentMap : shares.map;
  const declarations = mapShare > 0 ? declarationsOfFile() : [];
  const mapTokens = Math.floor(budgetTokens * mapShare);
  const numbering = mapNumbering(source, total);
  // A mask that keeps no line: what the map would name, or the intent's notice say, if every line were left out.
  const noneKept = new Uint8Array(total);
  const mapCost = (omitted: readonly Declaration[]): number => {
    // More declarations than the share could name (an entry and its separator cost 3 tokens or more): the map fills it.
    if (omitted.length * MIN_ENTRY_TOKENS > mapTokens) return mapTokens + 3;
    const notice = declarationMapNotice(omitted, noneKept, mapTokens, counter, numbering);
    return notice === "" ? 0 : counter.count(notice + "\n") + 2;
  };
  // Outline, head and tail share what the intent's lines leave.
  const room = Math.max(0, budgetTokens - gapTokens - intent.tokens - mapCost(declarations));
  const outlineTokens = !guided && room >= FILE_READ_OUTLINE_MIN_GAPS * gapTokens ? Math.floor(room * shares.outline) : 0;
  const headTokens = Math.floor((room - outlineTokens) * (guided ? shares.intentHead : shares.head));
  const tailTokens = Math.floor((room - outlineTokens) * (guided ? 1 - shares.intentHead : shares.tail));
  // A Python file's head and tail pass its long docstrings over (each one gap), so their room goes to code.
  // A read of a part further down may start inside a string: only one from the top has a module docstring.
  const atTop = source.wholeFile || source.fileRange(0, 0)?.from === 1;
  const passOver =
    outlineLanguageOf(source.path) === "python"
      ? docstringsNearEnds(
          lines,
          declarationsOfFile().map(({ index }) => index),
          budgetTokens,
          atTop,
        )
      : [];
  const head = passOver.length > 0 ? endPassingOver(lines, passOver, 1, headTokens, gapTokens, counter) : undefined;
  const tail = passOver.length > 0 ? endPassingOver(lines, passOver, -1, tailTokens, gapTokens, counter) : undefined;
  const headEnd = head?.end ?? reachWithin(lines, 0, 1, headTokens, counter);
  const tailStart = tail?.end ?? reachWithin(lines, total - 1, -1, tailTokens, counter) + 1;
  const outline = chooseOutline({
    lines,
    declarations: outlineTokens >= gapTokens ? declarationsOfFile() : [],
    headEnd,
    tailStart,
    maxTokens: outlineTokens,
    gapTokens,
    counter,
  });
  const blocks: LineBlock[] = [
    ...intent.blocks,
    ...(head?.blocks ?? [{ start: 0, end: total - 1, priority: 0, take: "head", maxTokens: headTokens } satisfies LineBlock]),
    ...(tail?.blocks ?? [{ start: 1, end: total, priority: 0, take: "tail", maxTokens: tailTokens } satisfies LineBlock]),
    ...outline.map((index): LineBlock => ({ start: index, end: index + 1, priority: 1, take: "all" })),
    ...linesBetween(head?.end ?? 0, total - 1, passOver).map((range): LineBlock => ({ ...range, priority: 2, take: "head", skip: true, group: "head" })),
    // What the head leaves (less than its next line) may still hold a short line above the tail.
    ...linesBetween(1, tail?.end ?? total, passOver)
      .reverse()
      .map((range): LineBlock => ({ ...range, priority: 3, take: "tail", skip: true, group: "tail" })),
    // Room left after all that goes to the docstrings passed over, from the top.
    ...(passOver.length > 0 ? [{ start: 0, end: total - 1, priority: 4, take: "head", skip: true } satisfies LineBlock] : []),
  ];
  // A map that cannot name every declaration names first those whose bodies the intent points into.
  const pointedAt = declarationsByIntent(declarations, intent.scores, total);
  // What the head, tail and the intent's lines leave out is what the map will name: only that is kept room for.
  const chosen = new Set(intent.chosen);
  const mapReserve = mapCost(declarations.filter(({ index }) => index >= headEnd && index < tailStart && !chosen.has(index)));
  const notices = withMapNotice(
    intent.selectionNotice,
    (kept) => declarationMapNotice(declarations, kept, mapTokens, counter, numbering, pointedAt),
    mapReserve,
    total,
    counter,
  );
  return buildLineView(lines, blocks, {
    budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter,
    describeGap,
    briefGaps: true,
    ...notices,
  });
};

/**
 * The map's numbers: the output's lines, unless a part of a file was read whose lines are known and numbered
 * differently (`sed -n 1000,3000p`, a read tool's offset): then the file's, as the lines and notices show them.
 */
function mapNumbering(source: ReadSource, total: number): MapNumbering {
  const first = total === 0 ? undefined : source.fileRange(0, 0);
  if (first === undefined || first.from === 1 || source.path === "") return OUTPUT_LINES;
  return { lineOf: (index) => source.fileRange(index, index)?.from ?? index + 1, label: `(${source.path} lines)` };
}
