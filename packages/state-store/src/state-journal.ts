import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@loupe/errors";
import { JOURNAL_FILE, writeAll, writeSnapshot } from "./state-files.js";
import type { StateChange, StateEntry } from "./state-table.js";

/** The journal is folded into a new snapshot once it reaches this size or the snapshot's. */
const COMPACT_MIN_JOURNAL_BYTES = 4 << 20;

interface PendingAppend {
  text: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The append-only journal of the file adapter, with group commit: changes appended while a
 * write is in flight go out together in the next write, and each `append` resolves only after
 * the fdatasync that made it durable. Compaction writes a snapshot of the live entries and
 * empties the journal. Every change is absolute, so replaying a journal onto a newer snapshot
 * converges on the same state: a crash at any point of compaction loses nothing acknowledged.
 *
 * @internal
 */
export class StateJournal {
  readonly #directory: string;
  readonly #handle: FileHandle;
  readonly #listEntries: () => Iterable<StateEntry>;
  #pending: PendingAppend[] = [];
  #flushing: Promise<void> | undefined;
  #failure: AppError | undefined;
  #journalBytes = 0;
  #compactAtBytes = COMPACT_MIN_JOURNAL_BYTES;

  private constructor(directory: string, handle: FileHandle, listEntries: () => Iterable<StateEntry>) {
    this.#directory = directory;
    this.#handle = handle;
    this.#listEntries = listEntries;
  }

  /**
   * Opens the journal of `directory` after its contents were replayed, and compacts at once,
   * which also drops a torn last line.
   */
  static async open(directory: string, listEntries: () => Iterable<StateEntry>): Promise<StateJournal> {
    const handle = await open(join(directory, JOURNAL_FILE), "a");
    const journal = new StateJournal(directory, handle, listEntries);
    try {
      await journal.#compact();
    } catch (error) {
      await handle.close();
      throw error;
    }
    return journal;
  }

  /** @throws AppError `unavailable` once a journal write has failed (memory may be ahead of disk). */
  assertWritable(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Resolves once `change` is durable on disk. */
  append(change: StateChange): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#pending.push({ text: JSON.stringify(change) + "\n", resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    await this.#flushing;
    await this.#handle.close();
  }

  async #flush(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending;
      this.#pending = [];
      try {
        this.#journalBytes += await writeAll(this.#handle, batch.map((pending) => pending.text).join(""));
        await this.#handle.datasync();
      } catch (error) {
        this.#fail(batch, error);
        break;
      }
      for (const pending of batch) pending.resolve();
      if (this.#journalBytes >= this.#compactAtBytes) {
        // A failed compaction is harmless (the journal still holds every change): retry later.
        await this.#compact().catch(() => {
          this.#compactAtBytes = this.#journalBytes * 2;
        });
      }
    }
    this.#flushing = undefined;
  }

  async #compact(): Promise<void> {
    const snapshotBytes = await writeSnapshot(this.#directory, this.#listEntries());
    await this.#handle.truncate(0);
    await this.#handle.sync();
    this.#journalBytes = 0;
    this.#compactAtBytes = Math.max(COMPACT_MIN_JOURNAL_BYTES, snapshotBytes);
  }

  #fail(batch: PendingAppend[], cause: unknown): void {
    this.#failure = new AppError("unavailable", `state journal write failed [directory=${this.#directory}]`, { cause });
    for (const pending of [...batch, ...this.#pending]) pending.reject(this.#failure);
    this.#pending = [];
  }
}
