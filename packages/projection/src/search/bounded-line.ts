import type { TokenCounter } from "../token-counter.js";

/** Limits for {@link boundedLine}. */
export interface BoundedLineOptions {
  /** Most items named. */
  maxItems: number;
  /** Most tokens the whole line may cost (its "\n" included). */
  maxTokens: number;
  counter: TokenCounter;
  /** What follows the named items when some are left out, e.g. `… and 5 more files`. */
  /** How many items there are when `items` holds only the first ones (at least `maxItems` of them); default `items.length`. */
  totalItems?: number;
  more: (count: number) => string;
}

/**
 * A notice line naming as many `items` as fit after `prefix` (joined with
 * ", "), then `more(n)` for the rest; no trailing newline. Within
 * `maxTokens` unless even `prefix` plus `more` do not fit, in which case that
 * is returned anyway (the caller checks the budget). Counts only the short
 * pieces it adds.
 */
export function boundedLine(prefix: string, items: readonly string[], options: BoundedLineOptions): string {
  return fitItems(prefix, items, options).line;
}

/** {@link boundedLine}, with how many of `items` the line names. */
export function fitItems(prefix: string, items: readonly string[], options: BoundedLineOptions): { line: string; named: number } {
  const { counter } = options;
  const total = options.totalItems ?? items.length;
  const full = (count: number): string => {
    const named = items.slice(0, count).join(", ");
    if (count >= total) return prefix + named;
    return prefix + named + (count > 0 ? ", " : "") + options.more(total - count);
  };
  let room = options.maxTokens - counter.count(full(0) + "\n");
  let count = 0;
  const limit = Math.min(options.maxItems, items.length);
  while (count < limit) {
    const cost = counter.count((items[count] ?? "") + ", ");
    if (cost > room) break;
    room -= cost;
    count++;
  }
  // Per-item counts can differ slightly from the joined line's: check the line and name fewer if needed,
  // or more while the joined line still fits (items counted alone can cost more than in the line).
  while (count > 0 && counter.within(full(count) + "\n", options.maxTokens) === false) count--;
  while (count < limit && counter.within(full(count + 1) + "\n", options.maxTokens) !== false) count++;
  return { line: full(count), named: count };
}
