/** Options for writes. */
export interface SetOptions {
  /**
   * Time to live in milliseconds (a positive integer). The key reads as missing once it has
   * elapsed. Absent: the key has no expiry (a `set` clears any earlier TTL).
   */
  ttlMs?: number;
  /** Checked before the write is sent; a write already sent is not withdrawn. */
  signal?: AbortSignal;
}

/**
 * The state port: rules, notes, revisions and marks as string values under keys built by
 * `stateKey()`. Every adapter (Redis, file, memory) has the same semantics, including TTLs.
 *
 * Errors are `AppError`: `unavailable` when the backend cannot be reached or the store is
 * closed, `cancelled` when `signal` was aborted, `invalid_argument` for a bad TTL or
 * increment, `failed_precondition` when `increment` meets a value that is not an integer.
 */
export interface StateStore {
  /** The value of `key`, or undefined when it is missing or expired. */
  get(key: string): Promise<string | undefined>;
  /** Writes `value`; without `ttlMs` the key has no expiry afterwards. */
  set(key: string, value: string, options?: SetOptions): Promise<void>;
  /**
   * Atomic compare-and-set: writes only when the current value equals `expected`
   * (undefined = key absent or expired). Returns true when written. The TTL is handled as in `set`.
   */
  compareAndSet(key: string, expected: string | undefined, value: string, options?: SetOptions): Promise<boolean>;
  /** Removes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Deletes every key starting with `prefix` (Redis: SCAN + UNLINK in batches, never KEYS).
   * Returns how many keys were deleted. Not atomic: keys written meanwhile may survive.
   */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Atomically adds `by` (a safe integer, may be negative) to the integer value of `key`
   * (missing = 0) and returns the new value. With `ttlMs` the expiry is reset to `ttlMs` from
   * now; without it an existing expiry is kept (like Redis INCRBY).
   */
  increment(key: string, by: number, options?: SetOptions): Promise<number>;
  /** Remaining TTL in milliseconds, or undefined when the key has none or is missing. */
  ttlMs(key: string): Promise<number | undefined>;
  /** Health probe (Redis PING). Throws AppError `unavailable` when the store is down or closed. */
  ping(): Promise<void>;
  /** Releases connections and files. Idempotent; later calls on the store throw `unavailable`. */
  close(): Promise<void>;
}
