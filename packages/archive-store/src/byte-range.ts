import { AppError } from "@loupe/errors";
import type { ByteRange } from "./archive-store.js";

/**
 * Checks a requested range: integer bounds, `0 <= start <= end`.
 *
 * @throws AppError `invalid_argument` naming the range.
 * @internal
 */
export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (Number.isSafeInteger(start) && Number.isSafeInteger(end) && start >= 0 && end >= start) return;
  throw new AppError("invalid_argument", `invalid byte range [start=${String(start)}, end=${String(end)}]`);
}

/**
 * Clips a valid range to an object of `sizeBytes`: the result satisfies `start <= end <= sizeBytes`, and is
 * empty (`start === end`) when the range starts at or past the end.
 *
 * @internal
 */
export function clipRange(range: ByteRange, sizeBytes: number): ByteRange {
  const start = Math.min(range.start, sizeBytes);
  return { start, end: Math.max(start, Math.min(range.end, sizeBytes)) };
}
