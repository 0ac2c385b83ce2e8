import { longDocstrings } from "../intent/docstring.js";
import type { LineBlock } from "../lines/select-lines.js";
import type { TokenCounter } from "../token-counter.js";

/** Lines [start, end) a view passes over (a long docstring): one gap where they stood. */
export interface Span {
  start: number;
  end: number;
}

// How many lines from each end of a file are looked through for docstrings, per token of the budget: a head
// or tail walks past at most one line of code a token, and the docstrings between them — twice that reaches
// as far as any walk does but in a file whose docstrings outweigh its code (whose further ones stay in view).
const LINES_PER_TOKEN = 2;

/**
 * The long docstrings (see longDocstrings) a Python file's head and tail may pass over: those of the
 * `definitions` (their lines' indices, in line order) within `LINES_PER_TOKEN × budgetTokens` lines of
 * either end, so a large file's are not all looked through, and the module's when the lines start at the
 * file's top (`atTop`). In line order, not overlapping. Pure.
 */
export function docstringsNearEnds(lines: readonly string[], definitions: readonly number[], budgetTokens: number, atTop: boolean): Span[] {
  const reach = LINES_PER_TOKEN * Math.max(1, budgetTokens);
  const near = lines.length <= 2 * reach ? definitions : definitions.filter((index) => index < reach || index >= lines.length - reach);
  return longDocstrings(lines, near, atTop);
}

/**
 * The head (`step` 1, from line 0) or tail (`step` -1, from the last line) of
 * a file as blocks that pass `spans` over: the lines between them, each span
 * one gap, until `maxTokens` is spent (each gap charged `gapTokens`, and none
 * opened with less than two gaps' room left). Returns the blocks (priority 0,
 * each allowed the tokens its lines cost, and one gap notice after a span, as
 * the selection charges them) and where the walk stopped: the index
 * past the head's last line, or the tail's first line. `spans` are in line
 * order and do not overlap. Pure.
 */
export function endPassingOver(
  lines: readonly string[],
  spans: readonly Span[],
  step: 1 | -1,
  maxTokens: number,
  gapTokens: number,
  counter: TokenCounter,
): { blocks: LineBlock[]; end: number } {
  const blocks: LineBlock[] = [];
  const take = step === 1 ? "head" : "tail";
  let room = maxTokens;
  // Walking forward, `at` is the next line to take; walking backward, the index past it.
  let at = step === 1 ? 0 : lines.length;
  // Takes lines from `at` toward `to` while they fit, as a block; false when one did not.
  const walkTo = (to: number): boolean => {
    let used = 0;
    let index = at;
    while (step === 1 ? index < to : index > to) {
      const cost = counter.within(lines[step === 1 ? index : index - 1] ?? "", room - used);
      if (cost === false) break;
      used += cost;
      index += step;
    }
    // A block after a span also pays the gap notice its first line opens (charged to `room` when the span was passed).
    const notice = blocks.length > 0 || at !== (step === 1 ? 0 : lines.length) ? gapTokens : 0;
    if (index !== at) blocks.push({ start: Math.min(at, index), end: Math.max(at, index), priority: 0, take, maxTokens: used + notice });
    room -= used;
    at = index;
    return index === to;
  };
  for (const span of step === 1 ? spans : [...spans].reverse()) {
    const near = step === 1 ? span.start : span.end;
    if (step === 1 ? near < at : near > at) continue;
    if (!walkTo(near) || room < gapTokens * 2) return { blocks, end: at };
    room -= gapTokens;
    at = step === 1 ? span.end : span.start;
  }
  walkTo(step === 1 ? lines.length : 0);
  return { blocks, end: at };
}

/** The lines [from, to) less `spans` (in line order), as ranges in line order. Pure. */
export function linesBetween(from: number, to: number, spans: readonly Span[]): Span[] {
  const ranges: Span[] = [];
  let start = from;
  for (const span of spans) {
    if (span.end <= start) continue;
    if (span.start >= to) break;
    if (span.start > start) ranges.push({ start, end: span.start });
    start = span.end;
  }
  if (start < to) ranges.push({ start, end: to });
  return ranges;
}
