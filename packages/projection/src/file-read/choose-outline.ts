import type { TokenCounter } from "../token-counter.js";
import { chooseWithin, headTailMask } from "./choose-within.js";

/** Everything {@link chooseOutline} needs. */
export interface OutlineOptions {
  lines: readonly string[];
  /** The file's declaration lines with their levels, in line order (see declarationsOf). */
  declarations: ReadonlyArray<{ readonly index: number; readonly level: number }>;
  /** Lines before this index and from `tailStart` on are expected in the view anyway. */
  headEnd: number;
  tailStart: number;
  /** Tokens the outline may cost, its gap notices included. */
  maxTokens: number;
  /** Tokens one gap notice costs. */
  gapTokens: number;
  counter: TokenCounter;
}

/**
 * Picks the outline lines (def, class, function … see outlineLevel) between
 * the expected head and tail to keep: outermost declarations first, and within
 * one nesting level spread evenly over the file, while their cost (the line
 * plus the gap notice it adds) fits `maxTokens`. Returns 0-based line indices
 * in file order.
 */
export function chooseOutline(options: OutlineOptions): number[] {
  const { lines } = options;
  if (options.maxTokens < options.gapTokens) return [];
  const between = options.declarations.filter(({ index }) => index >= options.headEnd && index < options.tailStart);
  return chooseWithin({
    lines,
    // Lazily: the share is usually spent within the first level, long before every candidate is listed.
    candidates: spreadLevels(bucketsByLevel(between).map((bucket) => bucket.map(({ index }) => index))),
    expected: headTailMask(lines.length, options.headEnd, options.tailStart),
    maxTokens: options.maxTokens,
    gapTokens: options.gapTokens,
    counter: options.counter,
  });
}

/** `items` grouped by their level, outermost (lowest) level first, each group in the items' order. */
export function bucketsByLevel<T extends { readonly level: number }>(items: readonly T[]): T[][] {
  const byLevel = new Map<number, T[]>();
  for (const item of items) {
    const bucket = byLevel.get(item.level);
    if (bucket) bucket.push(item);
    else byLevel.set(item.level, [item]);
  }
  return [...byLevel.entries()].sort(([a], [b]) => a - b).map(([, bucket]) => bucket);
}

/** The items of each bucket in turn, each in the order of {@link spread}, generated as they are taken. */
export function* spreadLevels<T>(buckets: readonly (readonly T[])[]): Generator<T> {
  for (const items of buckets) yield* spreadOrder(items);
}

/** `items` reordered so that every prefix is spread over the whole list (bit-reversed positions: middle, quarters, eighths …). */
export function spread<T>(items: readonly T[]): T[] {
  return [...spreadOrder(items)];
}

function* spreadOrder<T>(items: readonly T[]): Generator<T> {
  let bits = 0;
  while (1 << bits < items.length) bits++;
  for (let counter = 0; counter < 1 << bits; counter++) {
    let reversed = 0;
    for (let bit = 0; bit < bits; bit++) if (counter & (1 << bit)) reversed |= 1 << (bits - 1 - bit);
    const item = items[reversed];
    if (reversed < items.length && item !== undefined) yield item;
  }
}
