import { AppError } from "@loupe/errors";
import type { SetOptions } from "./state-store.js";

/**
 * Throws before any work when `options` cannot be honoured: `cancelled` for an aborted
 * signal, `invalid_argument` for a TTL that is not a positive safe integer.
 *
 * @internal
 */
export function assertSetOptions(options: SetOptions | undefined, operation: string): void {
  if (options?.signal?.aborted === true) {
    throw new AppError("cancelled", `state store operation cancelled [op=${operation}]`, { cause: options.signal.reason });
  }
  const ttlMs = options?.ttlMs;
  if (ttlMs !== undefined && (!Number.isSafeInteger(ttlMs) || ttlMs <= 0)) {
    throw new AppError("invalid_argument", `ttl must be a positive integer of milliseconds [op=${operation}, ttlMs=${ttlMs}]`);
  }
}

/**
 * Throws `invalid_argument` when `by` is not a safe integer.
 *
 * @internal
 */
export function assertIncrementBy(by: number): void {
  if (!Number.isSafeInteger(by)) {
    throw new AppError("invalid_argument", `increment must be a safe integer [by=${by}]`);
  }
}
