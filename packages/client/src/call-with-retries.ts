import { AppError, isAppError } from "@loupe/errors";

/** Default number of retries after an `unavailable` failure. */
export const DEFAULT_RETRIES = 3;
/** Default delay before the first retry, in ms; each further retry doubles it (100, 200, 400 ms). */
export const DEFAULT_RETRY_DELAY_MS = 100;
/** Default longest delay between two attempts, in ms. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 5_000;

/** How a call is retried: `retries` more attempts after the first, with doubling delays. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  retries: number;
  /** Delay before the first retry, in ms. */
  retryDelayMs: number;
  /** Cap on any one delay, in ms. */
  maxRetryDelayMs: number;
}

/** Options of one {@link callWithRetries}. */
export interface CallWithRetriesOptions {
  policy: RetryPolicy;
  /** Deadline of the whole call (every attempt and delay), in ms from now. */
  timeoutMs: number;
  /** False for calls that may have taken effect: they are attempted once. */
  retry: boolean;
  signal?: AbortSignal | undefined;
}

/**
 * The delay before retry number `retry` (0-based): `retryDelayMs * 2^retry`,
 * capped at `maxRetryDelayMs`. Deterministic: no jitter.
 */
export function retryDelayFor(retry: number, policy: RetryPolicy): number {
  return Math.min(policy.retryDelayMs * 2 ** retry, policy.maxRetryDelayMs);
}

/**
 * Runs `attempt` with the time left before the deadline, retrying only on an
 * AppError with code `unavailable` (nothing reached the server, or it was
 * restarting) while retries and time remain. Rethrows the last error; throws
 * `deadline_exceeded` when no time is left for an attempt and `cancelled` when
 * `signal` aborts during a delay.
 */
export async function callWithRetries<T>(attempt: (timeoutMs: number) => Promise<T>, options: CallWithRetriesOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (let retry = 0; ; retry++) {
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) throw new AppError("deadline_exceeded", `call deadline exceeded [timeoutMs=${String(options.timeoutMs)}]`);
    try {
      return await attempt(remainingMs);
    } catch (error) {
      if (!options.retry || retry >= options.policy.retries || !isAppError(error) || error.code !== "unavailable") throw error;
      const delayMs = retryDelayFor(retry, options.policy);
      // Sleeping past the deadline would only turn a clear "unavailable" into a vague timeout.
      if (Date.now() + delayMs >= deadline) throw error;
      await sleep(delayMs, options.signal);
    }
  }
}

function sleep(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AppError("cancelled", "call cancelled"));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AppError("cancelled", "call cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
