import { join } from "node:path";
import { AppendLog } from "@loupe/durable-file";
import { AppError } from "@loupe/errors";
import { JOURNAL_FILE, parseJournal, writeSnapshot } from "./state-files.js";
import type { StateChange, StateEntry } from "./state-table.js";

/** The journal is folded into a new snapshot once it reaches this size or the snapshot's. */
const COMPACT_MIN_JOURNAL_BYTES = 4 << 20;

/**
 * The journal of the file adapter, on the one append log of `@loupe/durable-file` (group commit:
 * each `append` resolves only after the fdatasync that made it durable). Compaction writes a
 * snapshot of the live entries and empties the journal. Every change is absolute, so replaying a
 * journal onto a newer snapshot converges on the same state: a crash at any point of compaction
 * loses nothing acknowledged. After a failed write the store's memory may be ahead of disk, so
 * every later append is refused.
 *
 * @internal
 */
export class StateJournal {
  readonly #directory: string;
  readonly #log: AppendLog;
  readonly #listEntries: () => Iterable<StateEntry>;
  #failure: AppError | undefined;
  #compactAtBytes = COMPACT_MIN_JOURNAL_BYTES;
  #compacting: Promise<void> | undefined;

  private constructor(directory: string, log: AppendLog, listEntries: () => Iterable<StateEntry>) {
    this.#directory = directory;
    this.#log = log;
    this.#listEntries = listEntries;
  }

  /**
   * Opens the journal of `directory` and returns the changes it holds (a torn last line dropped);
   * call `compact` once they are replayed.
   *
   * @throws AppError `internal` when a line is corrupt
   */
  static async open(directory: string, listEntries: () => Iterable<StateEntry>): Promise<{ journal: StateJournal; changes: StateChange[] }> {
    const { log, lines } = await AppendLog.open(join(directory, JOURNAL_FILE));
    try {
      return { journal: new StateJournal(directory, log, listEntries), changes: parseJournal(lines, directory) };
    } catch (error) {
      await log.close();
      throw error;
    }
  }

  /** @throws AppError `unavailable` once a journal write has failed (memory may be ahead of disk). */
  assertWritable(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Resolves once `change` is durable on disk. */
  async append(change: StateChange): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    try {
      await this.#log.append(JSON.stringify(change));
    } catch (cause) {
      this.#failure ??= new AppError("unavailable", `state journal write failed [directory=${this.#directory}]`, { cause });
      throw this.#failure;
    }
    if (this.#log.sizeBytes >= this.#compactAtBytes) {
      // A failed compaction is harmless (the journal still holds every change): retry later.
      this.#compacting ??= this.compact()
        .catch(() => {
          this.#compactAtBytes = this.#log.sizeBytes * 2;
        })
        .finally(() => (this.#compacting = undefined));
    }
  }

  /** Writes a snapshot of the live entries, then empties the journal. */
  async compact(): Promise<void> {
    const snapshotBytes = await writeSnapshot(this.#directory, this.#listEntries());
    await this.#log.rewrite(() => []);
    this.#compactAtBytes = Math.max(COMPACT_MIN_JOURNAL_BYTES, snapshotBytes);
  }

  /** Waits for pending appends and a running compaction, then closes the file. */
  async close(): Promise<void> {
    await this.#compacting;
    await this.#log.close();
  }
}
