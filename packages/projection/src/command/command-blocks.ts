import type { LineBlock } from "../lines/select-lines.js";
import type { ProjectionShares } from "../projectors/projection-shares.js";
import type { LineKind } from "./classify-lines.js";
import { BLANK, JVM_CAUSE } from "./line-patterns.js";
import type { BlockSegment, ErrorBlock } from "./find-error-blocks.js";

// Counts that shape a command's view (its shares of the budget are ProjectionShares["command"]).
/** How many last lines are kept first: verdicts live there. */
const TAIL_LINES = 5;
const SHORT_PIECE_LINES = 3;
const CONTEXT_BEFORE = 2;
const CONTEXT_AFTER = 2;
// The engine cannot keep more than the budget holds: past these counts, only both ends are offered.
const MAX_BLOCKS_OFFERED = 400;
const MAX_SINGLE_LINES_OFFERED = 400;

// Priorities, in the order the engine fills the view.
const P_VERDICT = 0;
const P_FIRST_LAST = 0.1;
const P_FAILURE_NAMES = 1;
const P_OTHER = 1.1;
// Every block's key lines come before any block's detail: that is what the evidence estimate reserves room for.
const P_FIRST_LAST_DETAIL = 1.15;
const P_OTHER_DETAIL = 1.2;
const P_LIBRARY = 1.4;
const P_CONTEXT = 1.6;
const P_HEAD = 2;
const P_WARNINGS = 2.5;
const P_REST = 3;

/** Where the last TAIL_LINES lines that are not blank start (blank lines a program ends with hold no verdict). */
export function lastLinesStart(lines: readonly string[]): number {
  let found = 0;
  let index = lines.length;
  while (index > 0 && found < TAIL_LINES) if (!BLANK.test(lines[--index] ?? "")) found++;
  return index;
}

/** Lines of one kind, in order, capped to their first and last `max / 2`. */
function linesOfKind(kinds: readonly LineKind[], kind: LineKind, max: number): number[] {
  const found: number[] = [];
  for (let index = 0; index < kinds.length; index++) if (kinds[index] === kind) found.push(index);
  return found.length <= max ? found : [...found.slice(0, max / 2), ...found.slice(found.length - max / 2)];
}

/** The runs of `summary_block` lines (pytest's short test summary info). */
function summaryBlocks(kinds: readonly LineKind[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let index = 0; index < kinds.length; index++) {
    if (kinds[index] !== "summary_block") continue;
    const start = index;
    while (index < kinds.length && kinds[index] === "summary_block") index++;
    runs.push([start, index]);
  }
  return runs;
}

// A whole piece, and its start within `fallbackTokens` in case the whole does not fit.
function piece(start: number, end: number, priority: number, fallbackTokens: number): LineBlock[] {
  const whole: LineBlock = { start, end, priority, take: "all" };
  if (end - start <= SHORT_PIECE_LINES) return [whole];
  return [whole, { start, end, priority: priority + 0.05, take: "head", maxTokens: Math.floor(fallbackTokens) }];
}

// The block's key segments from both ends inwards: the line that opens it, the exception that ends it, then
// the outermost and innermost frames and so on. A block of chained tracebacks ("The above exception was the
// direct cause …") is taken traceback by traceback, the last (in Python the one that reached the top, whose
// outermost frame is the caller's own code; on the JVM, after "Caused by:", the root cause) first, each from
// its ends: every traceback's ends come before any middle. Each one kept next to a kept one adds no gap notice.
function keySegments(block: ErrorBlock, lines: readonly string[], kinds: readonly LineKind[]): BlockSegment[] {
  const groups: BlockSegment[][] = [];
  for (const segment of block.segments) {
    if (segment.rank !== 0) continue;
    const current = groups[groups.length - 1];
    const opens = kinds[segment.start] === "trace_header" || JVM_CAUSE.test(lines[segment.start] ?? "");
    if (current === undefined || (opens && current.length > 0)) groups.push([segment]);
    else current.push(segment);
  }
  const last = groups.pop();
  const inwards = (last === undefined ? groups : [last, ...groups]).map(fromBothEnds);
  const ordered: ChainSegment[] = [];
  for (let depth = 0; inwards.some((group) => depth < group.length); depth++) {
    inwards.forEach((group, traceback) => {
      const segment = group[depth];
      if (segment !== undefined) ordered.push({ segment, depth, traceback });
    });
  }
  return inwards.length < 2 ? ordered.map(({ segment }) => segment) : sharedLast(ordered, lines);
}

/** A key segment of a chain of tracebacks: how deep from its traceback's ends, and which traceback. */
interface ChainSegment {
  segment: BlockSegment;
  depth: number;
  traceback: number;
}

// How deep from a traceback's ends its ends go: the header, the exception, the outermost and the innermost frame.
const END_DEPTH = 4;

// Tracebacks of one chain can share frames word for word (a handler that walks the same path again; the same
// exception line in each): a shared frame met again adds nothing, and the frames one traceback has alone tell the
// tracebacks apart. So shared segments go after the others, in order: first the first copy of each (kept in place
// when it is one of its traceback's ends), then the copies met again.
function sharedLast(ordered: readonly ChainSegment[], lines: readonly string[]): BlockSegment[] {
  const texts = ordered.map(({ segment }) => lines.slice(segment.start, segment.end).join("\n"));
  const tracebacksOf = new Map<string, Set<number>>();
  ordered.forEach(({ traceback }, index) => {
    const text = texts[index] ?? "";
    tracebacksOf.set(text, (tracebacksOf.get(text) ?? new Set<number>()).add(traceback));
  });
  const seen = new Set<string>();
  const classes: BlockSegment[][] = [[], [], []];
  for (const [index, { segment, depth }] of ordered.entries()) {
    const text = texts[index] ?? "";
    const shared = (tracebacksOf.get(text)?.size ?? 0) > 1;
    const again = seen.has(text);
    seen.add(text);
    classes[!shared || (!again && depth < END_DEPTH) ? 0 : again ? 2 : 1]?.push(segment);
  }
  return classes.flat();
}

// Segments ordered from both ends inwards: first, last, second, second to last …
function fromBothEnds(segments: readonly BlockSegment[]): BlockSegment[] {
  const ordered: BlockSegment[] = [];
  for (let low = 0, high = segments.length - 1; low <= high; low++, high--) {
    const first = segments[low];
    const last = segments[high];
    if (first !== undefined) ordered.push(first);
    if (last !== undefined && high !== low) ordered.push(last);
  }
  return ordered;
}

// A whole piece too large to fit keeps its start within `fallbackTokens` (the piece share of the budget) instead.
function blockPieces(
  block: ErrorBlock,
  lines: readonly string[],
  kinds: readonly LineKind[],
  priority: number,
  detailPriority: number,
  fallbackTokens: number,
  withContext: boolean,
): LineBlock[] {
  const pieces = keySegments(block, lines, kinds).flatMap((segment) => piece(segment.start, segment.end, priority, fallbackTokens));
  block.segments.forEach((segment, index) => {
    if (segment.rank === 2) pieces.push({ start: segment.start, end: segment.end, priority: P_LIBRARY, take: "all" });
    if (segment.rank !== 1) return;
    // Detail comes with the key line above it (free when that is kept), never alone in the middle of an omission.
    const previous = block.segments[index - 1];
    const start = previous !== undefined && previous.rank === 0 ? previous.start : segment.start;
    // Short detail (a source line, a caret) whole; a long one (a test's source, a YAML report) only its start.
    if (segment.end - segment.start <= SHORT_PIECE_LINES) pieces.push({ start, end: segment.end, priority: detailPriority, take: "all" });
    else pieces.push({ start, end: segment.end, priority: detailPriority, take: "head", maxTokens: Math.floor(fallbackTokens) });
  });
  // Context only around the first and last blocks: elsewhere a context line next to an unkept block costs a notice.
  if (withContext) {
    pieces.push({ start: Math.max(0, block.start - CONTEXT_BEFORE), end: block.start, priority: P_CONTEXT, take: "tail" });
    pieces.push({ start: block.end, end: block.end + CONTEXT_AFTER, priority: P_CONTEXT, take: "head" });
  }
  return pieces;
}

/** Budget figures for {@link commandLineBlocks}. */
export interface CommandBlockOptions {
  budgetTokens: number;
  /** Tokens the head of the output may take before the error blocks (see projectCommand's head shares). */
  headFirstTokens: number;
  /** Where the last lines kept as verdicts start (see lastLinesStart). */
  tailStart: number;
  /** The tail, head, more-tail, piece and summary-block shares. */
  shares: ProjectionShares["command"];
}

/**
 * The blocks a command's view is selected from, most important first:
 * verdicts (summary lines, pytest's short summary block whole, the last five
 * lines) and the head of the output within `headFirstTokens`, then the first
 * and last error blocks, failing test names, the other error blocks (key
 * lines before their detail, library frames and context), then more of the
 * head (head-weighted), more tail, warnings, and the rest of the head and
 * tail. See {@link findErrorBlocks}.
 */
export function commandLineBlocks(
  lines: readonly string[],
  kinds: readonly LineKind[],
  errorBlocks: readonly ErrorBlock[],
  options: CommandBlockOptions,
): LineBlock[] {
  const { budgetTokens, shares } = options;
  const pieceTokens = budgetTokens * shares.piece;
  const total = kinds.length;
  const blocks: LineBlock[] = [];
  for (const index of linesOfKind(kinds, "summary", MAX_SINGLE_LINES_OFFERED)) blocks.push({ start: index, end: index + 1, priority: P_VERDICT, take: "all" });
  for (const [start, end] of summaryBlocks(kinds)) blocks.push(...piece(start, end, P_VERDICT, budgetTokens * shares.summaryBlockFallback));
  blocks.push({ start: options.tailStart, end: total, priority: P_VERDICT, take: "tail", maxTokens: Math.floor(budgetTokens * shares.tail) });
  if (options.headFirstTokens > 0) blocks.push({ start: 0, end: total, priority: P_VERDICT, take: "head", maxTokens: Math.floor(options.headFirstTokens) });
  const last = errorBlocks[errorBlocks.length - 1];
  const first = errorBlocks[0];
  if (last !== undefined) blocks.push(...blockPieces(last, lines, kinds, P_FIRST_LAST, P_FIRST_LAST_DETAIL, pieceTokens, true));
  if (first !== undefined && first !== last) blocks.push(...blockPieces(first, lines, kinds, P_FIRST_LAST, P_FIRST_LAST_DETAIL, pieceTokens, true));
  for (const index of linesOfKind(kinds, "failure", MAX_SINGLE_LINES_OFFERED))
    blocks.push({ start: index, end: index + 1, priority: P_FAILURE_NAMES, take: "all" });
  const others = errorBlocks.slice(1, -1);
  const offered =
    others.length <= MAX_BLOCKS_OFFERED ? others : [...others.slice(0, MAX_BLOCKS_OFFERED / 2), ...others.slice(others.length - MAX_BLOCKS_OFFERED / 2)];
  for (const block of offered) blocks.push(...blockPieces(block, lines, kinds, P_OTHER, P_OTHER_DETAIL, pieceTokens, false));
  blocks.push({ start: 0, end: total, priority: P_HEAD, take: "head", maxTokens: Math.floor(budgetTokens * shares.head) });
  blocks.push({ start: 0, end: total, priority: P_HEAD, take: "tail", maxTokens: Math.floor(budgetTokens * shares.moreTail) });
  for (const index of linesOfKind(kinds, "warning", MAX_SINGLE_LINES_OFFERED)) blocks.push({ start: index, end: index + 1, priority: P_WARNINGS, take: "all" });
  blocks.push({ start: 0, end: total, priority: P_REST, take: "head", skip: true });
  blocks.push({ start: 0, end: total, priority: P_REST + 0.5, take: "tail", skip: true });
  return blocks;
}
