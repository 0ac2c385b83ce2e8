import { AppError } from "@loupe/errors";

/** A change, as the file adapter journals it; every change is absolute, so replay is idempotent. */
export type StateChange =
  { op: "set"; key: string; value: string; expiresAtMs?: number } | { op: "delete"; key: string } | { op: "deletePrefix"; prefix: string };

/** One live entry of a snapshot. */
export interface StateEntry {
  key: string;
  value: string;
  expiresAtMs?: number;
}

// What Redis accepts as an integer (string2ll): no sign "+", no leading zeros, no "-0", no spaces.
const INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * The in-process key space shared by the memory and file adapters: values with an absolute
 * expiry (epoch milliseconds), read as missing once expired. Each mutation returns the change
 * to journal (undefined when nothing changed). Synchronous, so each call is atomic.
 *
 * @internal
 */
export class StateTable {
  readonly #entries = new Map<string, { value: string; expiresAtMs?: number }>();

  get(key: string, nowMs: number): string | undefined {
    return this.#live(key, nowMs)?.value;
  }

  set(key: string, value: string, ttlMs: number | undefined, nowMs: number): StateChange {
    const change: StateChange = ttlMs === undefined ? { op: "set", key, value } : { op: "set", key, value, expiresAtMs: nowMs + ttlMs };
    this.apply(change);
    return change;
  }

  compareAndSet(key: string, expected: string | undefined, value: string, ttlMs: number | undefined, nowMs: number): StateChange | undefined {
    if (this.get(key, nowMs) !== expected) return undefined;
    return this.set(key, value, ttlMs, nowMs);
  }

  delete(key: string, nowMs: number): StateChange | undefined {
    if (this.#live(key, nowMs) === undefined) return undefined;
    const change: StateChange = { op: "delete", key };
    this.apply(change);
    return change;
  }

  deletePrefix(prefix: string, nowMs: number): { count: number; change?: StateChange } {
    let count = 0;
    for (const key of this.#entries.keys()) {
      if (key.startsWith(prefix) && this.#live(key, nowMs) !== undefined) count += 1;
    }
    if (count === 0) return { count };
    const change: StateChange = { op: "deletePrefix", prefix };
    this.apply(change);
    return { count, change };
  }

  /** @throws AppError `failed_precondition` (not an integer), `out_of_range` (beyond safe integers) */
  increment(key: string, by: number, ttlMs: number | undefined, nowMs: number): { value: number; change: StateChange } {
    const current = this.#live(key, nowMs);
    if (current !== undefined && !INTEGER.test(current.value)) {
      throw new AppError("failed_precondition", `value is not an integer [key=${key}]`);
    }
    const value = Number(current?.value ?? "0") + by;
    if (!Number.isSafeInteger(value)) {
      throw new AppError("out_of_range", `increment would overflow [key=${key}]`);
    }
    const expiresAtMs = ttlMs === undefined ? current?.expiresAtMs : nowMs + ttlMs;
    const change: StateChange = expiresAtMs === undefined ? { op: "set", key, value: String(value) } : { op: "set", key, value: String(value), expiresAtMs };
    this.apply(change);
    return { value, change };
  }

  ttlMs(key: string, nowMs: number): number | undefined {
    const expiresAtMs = this.#live(key, nowMs)?.expiresAtMs;
    return expiresAtMs === undefined ? undefined : expiresAtMs - nowMs;
  }

  /** Applies a change as it is (also when replaying a journal). */
  apply(change: StateChange): void {
    switch (change.op) {
      case "set":
        this.#entries.set(change.key, change.expiresAtMs === undefined ? { value: change.value } : { value: change.value, expiresAtMs: change.expiresAtMs });
        return;
      case "delete":
        this.#entries.delete(change.key);
        return;
      case "deletePrefix":
        for (const key of this.#entries.keys()) if (key.startsWith(change.prefix)) this.#entries.delete(key);
        return;
    }
  }

  /** The entries that have not expired at `nowMs`, in insertion order; drops expired ones. */
  *entries(nowMs: number): Iterable<StateEntry> {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAtMs !== undefined && entry.expiresAtMs <= nowMs) {
        this.#entries.delete(key);
        continue;
      }
      yield entry.expiresAtMs === undefined ? { key, value: entry.value } : { key, value: entry.value, expiresAtMs: entry.expiresAtMs };
    }
  }

  #live(key: string, nowMs: number): { value: string; expiresAtMs?: number } | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs !== undefined && entry.expiresAtMs <= nowMs) {
      // Expired entries are dropped lazily; no change is journalled since expiry is deterministic.
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
