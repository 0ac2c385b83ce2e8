import { AppError } from "@loupe/errors";

/**
 * The AppError for a call stopped by its signal: `deadline_exceeded` when the signal's reason is a
 * `TimeoutError` (as from `AbortSignal.timeout`), else `cancelled`; the reason (or `fallbackCause` when the
 * signal did not fire) is kept as `cause`.
 *
 * @internal
 */
export function abortError(signal: AbortSignal | undefined, context: string, fallbackCause?: unknown): AppError {
  const reason: unknown = signal?.aborted === true ? signal.reason : fallbackCause;
  const timedOut = reason instanceof Error && reason.name === "TimeoutError";
  return timedOut
    ? new AppError("deadline_exceeded", `archive store call timed out [${context}]`, { cause: reason })
    : new AppError("cancelled", `archive store call cancelled [${context}]`, { cause: reason });
}

/**
 * Throws {@link abortError} when `signal` is already aborted.
 *
 * @internal
 */
export function throwIfAborted(signal: AbortSignal | undefined, context: string): void {
  if (signal?.aborted === true) throw abortError(signal, context);
}
