import { mkdir } from "node:fs/promises";
import { AppError, isAppError } from "@loupe/errors";
import { assertIncrementBy, assertSetOptions } from "./assert-options.js";
import { lockDirectory } from "@loupe/runtime";
import { readSnapshot } from "./state-files.js";
import { StateJournal } from "./state-journal.js";
import type { SetOptions, StateStore } from "./state-store.js";
import { StateTable } from "./state-table.js";

/** Options of `createFileStateStore`. */
export interface FileStateStoreOptions {
  /** Directory that holds the state (`state.snapshot`, `state.journal`, `state.lock`); created when missing. */
  directory: string;
}

/**
 * Opens the embedded `StateStore` persisted under `options.directory`: the key space lives in
 * memory, every change is appended to a journal and fsynced before the call resolves (so an
 * acknowledged write survives a crash or restart), and the journal is compacted into an
 * atomically replaced snapshot as it grows. TTLs are absolute wall-clock times, so a key also
 * expires while the process is down. A read of a key with a write on its way to disk waits for
 * that write to be durable, so nothing a reader saw is lost by a crash. One process (and one
 * store) per directory at a time.
 *
 * @throws AppError `failed_precondition` when the directory is already open (in this or
 * another live process), `internal` when its files are corrupt, `unavailable` when they
 * cannot be read or written
 */
export async function createFileStateStore(options: FileStateStoreOptions): Promise<StateStore> {
  const { directory } = options;
  try {
    await mkdir(directory, { recursive: true });
    const unlock = await lockDirectory(directory, { fileName: "state.lock", label: "state directory" });
    try {
      const table = new StateTable();
      for (const entry of await readSnapshot(directory)) table.apply({ op: "set", ...entry });
      const { journal, changes } = await StateJournal.open(directory, () => table.entries(Date.now()));
      try {
        for (const change of changes) table.apply(change);
        // Folds the replayed journal into a fresh snapshot (and drops a torn last line for good).
        await journal.compact();
      } catch (error) {
        await journal.close();
        throw error;
      }
      return new FileStateStore(table, journal, unlock);
    } catch (error) {
      await unlock();
      throw error;
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError("unavailable", `state directory cannot be opened [directory=${directory}]`, { cause: error });
  }
}

/** Rounds a read waits for new writes of its key before it reads anyway (a key written without pause never starves a reader). */
const MAX_DURABLE_WAITS = 8;

class FileStateStore implements StateStore {
  readonly #table: StateTable;
  readonly #journal: StateJournal;
  readonly #unlock: () => Promise<void>;
  /** The journal append of the last write of each key (or key prefix) still on its way to disk. */
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #prefixesInFlight = new Map<string, Promise<void>>();
  #closing: Promise<void> | undefined;

  constructor(table: StateTable, journal: StateJournal, unlock: () => Promise<void>) {
    this.#table = table;
    this.#journal = journal;
    this.#unlock = unlock;
  }

  async get(key: string): Promise<string | undefined> {
    this.#assertUsable();
    await this.#durable(key);
    return this.#table.get(key, Date.now());
  }

  async set(key: string, value: string, options?: SetOptions): Promise<void> {
    this.#assertUsable();
    assertSetOptions(options, "set");
    await this.#append(key, this.#table.set(key, value, options?.ttlMs, Date.now()));
  }

  async compareAndSet(key: string, expected: string | undefined, value: string, options?: SetOptions): Promise<boolean> {
    this.#assertUsable();
    assertSetOptions(options, "compareAndSet");
    const change = this.#table.compareAndSet(key, expected, value, options?.ttlMs, Date.now());
    if (change === undefined) return false;
    await this.#append(key, change);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.#assertUsable();
    const change = this.#table.delete(key, Date.now());
    if (change !== undefined) await this.#append(key, change);
  }

  async deletePrefix(prefix: string): Promise<number> {
    this.#assertUsable();
    const { count, change } = this.#table.deletePrefix(prefix, Date.now());
    if (change !== undefined) await this.#track(this.#prefixesInFlight, prefix, this.#journal.append(change));
    return count;
  }

  async increment(key: string, by: number, options?: SetOptions): Promise<number> {
    this.#assertUsable();
    assertSetOptions(options, "increment");
    assertIncrementBy(by);
    const { value, change } = this.#table.increment(key, by, options?.ttlMs, Date.now());
    await this.#append(key, change);
    return value;
  }

  async ttlMs(key: string): Promise<number | undefined> {
    this.#assertUsable();
    await this.#durable(key);
    return this.#table.ttlMs(key, Date.now());
  }

  async ping(): Promise<void> {
    this.#assertUsable();
  }

  close(): Promise<void> {
    this.#closing ??= this.#journal.close().finally(() => this.#unlock());
    return this.#closing;
  }

  #append(key: string, change: Parameters<StateJournal["append"]>[0]): Promise<void> {
    return this.#track(this.#inFlight, key, this.#journal.append(change));
  }

  /** Remembers `append` as the last write of `key` on its way to disk until it settles. */
  async #track(inFlight: Map<string, Promise<void>>, key: string, append: Promise<void>): Promise<void> {
    inFlight.set(key, append);
    try {
      await append;
    } finally {
      if (inFlight.get(key) === append) inFlight.delete(key);
    }
  }

  /**
   * Resolves once no write of `key` (nor of a prefix of it) is on its way to disk; reading right after sees
   * only durable writes. A failed write is waited for too (its failure is its writer's to report).
   */
  async #durable(key: string): Promise<void> {
    for (let round = 0; round < MAX_DURABLE_WAITS; round++) {
      // The common case, nothing on its way to disk, costs no allocation.
      if (this.#inFlight.size === 0 && this.#prefixesInFlight.size === 0) return;
      const waits = [this.#inFlight.get(key), ...[...this.#prefixesInFlight].filter(([prefix]) => key.startsWith(prefix)).map(([, append]) => append)];
      const pending = waits.filter((wait) => wait !== undefined);
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  #assertUsable(): void {
    if (this.#closing !== undefined) throw new AppError("unavailable", "state store is closed");
    this.#journal.assertWritable();
  }
}
