import type { TokenCounter } from "../token-counter.js";

const MAX_MISSES = 64;

/** Everything {@link chooseWithin} needs. */
export interface ChooseWithinOptions {
  lines: readonly string[];
  /** Line indices wanted, most wanted first. */
  candidates: Iterable<number>;
  /** Per line, 1 when the view keeps it anyway (the expected head and tail); not modified. */
  expected: Uint8Array;
  /** Tokens the chosen lines may cost, the gap notices they add included. */
  maxTokens: number;
  /** Tokens one gap notice costs. */
  gapTokens: number;
  counter: TokenCounter;
}

/**
 * Picks scattered lines (outline lines, grep hits) within a share of the
 * budget before the selection engine runs, since the engine has no limit
 * across many one-line blocks. Each candidate costs its tokens plus the change
 * it makes to the number of gaps, as the engine will charge it: a line between
 * two kept lines closes a gap, one next to a kept line costs no new notice,
 * an isolated one adds one. Returns the chosen indices in line order.
 */
export function chooseWithin(options: ChooseWithinOptions): number[] {
  const { lines, counter, gapTokens } = options;
  const kept = options.expected.slice();
  const chosen: number[] = [];
  let room = options.maxTokens;
  let misses = 0;
  for (const index of options.candidates) {
    // Past a run of candidates that did not fit, the rest will not either (nearly always): stop counting.
    if (room <= 0 || misses >= MAX_MISSES) break;
    if (kept[index] === 1 || index < 0 || index >= lines.length) continue;
    const left = index === 0 || kept[index - 1] === 1;
    const right = index === lines.length - 1 || kept[index + 1] === 1;
    const delta = left && right ? -1 : !left && !right ? 1 : 0;
    const cost = counter.within(lines[index] ?? "", room - delta * gapTokens);
    if (cost === false || cost + delta * gapTokens > room) {
      misses++;
      continue;
    }
    misses = 0;
    room -= cost + delta * gapTokens;
    kept[index] = 1;
    chosen.push(index);
  }
  return chosen.sort((a, b) => a - b);
}

/** A mask of the lines before `headEnd` and from `tailStart` on. */
export function headTailMask(total: number, headEnd: number, tailStart: number): Uint8Array {
  const mask = new Uint8Array(total);
  mask.fill(1, 0, Math.min(total, Math.max(0, headEnd)));
  mask.fill(1, Math.max(0, tailStart), total);
  return mask;
}

/** The first index (walking from `from` by `step`) past the lines whose tokens fit in `maxTokens`. */
export function reachWithin(lines: readonly string[], from: number, step: 1 | -1, maxTokens: number, counter: TokenCounter): number {
  let room = maxTokens;
  let index = from;
  for (; index >= 0 && index < lines.length; index += step) {
    const cost = counter.within(lines[index] ?? "", room);
    if (cost === false) break;
    room -= cost;
  }
  return index;
}
