// Small helpers the benchmarks share: order statistics and table formatting.

/** The q-quantile of `values` by nearest rank (q = 0.5 is the median, 0.99 the p99). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

/** The median of `values` (the lower middle one for an even count). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Formats `value` with `digits` decimals, padded to `width` on the left. */
export function cell(value: number | string, width: number, digits = 1): string {
  return (typeof value === "number" ? value.toFixed(digits) : value).padStart(width);
}

/** Milliseconds elapsed since `started` (a performance.now() reading). */
export function since(started: number): number {
  return performance.now() - started;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
