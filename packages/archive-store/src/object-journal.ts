import { open, readdir, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { AppendLog, syncDirectory } from "@loupe/durable-file";
import { lockDirectory } from "@loupe/runtime";
import { errnoOf } from "./file-errors.js";

/** Bodies up to this size are made durable through the journal; larger ones are fsynced as files. */
export const JOURNAL_MAX_BODY_BYTES = 256 * 1024;
/** A journal file past this size is checkpointed: its objects fsynced as files, then the file removed. */
export const JOURNAL_CHECKPOINT_BYTES = 32 * 1024 * 1024;

/** One journal line: an object's whole body (base64), several objects' bodies together, or a deletion. */
type Entry = { p: string; b: string } | { m: [string, string][] } | { d: string };

/** An object the journal makes durable: its key, the file written for it, and its body. */
export interface JournalObject {
  readonly key: string;
  readonly path: string;
  readonly body: Uint8Array;
}

const base64 = (body: Uint8Array): string => Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("base64");

/** What replaying a journal at open does with each entry, in order. */
export interface JournalReplay {
  /** Writes `body` at `key` durably (fsynced, folder too). */
  put(key: string, body: Uint8Array): Promise<void>;
  /** Removes `key` (a missing key is fine). */
  delete(key: string): Promise<void>;
}

interface Epoch {
  readonly number: number;
  readonly log: AppendLog;
  /** Files written while this journal file was current: fsynced when it is checkpointed. */
  readonly files: Set<string>;
}

/**
 * The file store's write-ahead journal (group commit): a small object is written as a file without an
 * fsync and recorded here, so one fdatasync, shared by every save in flight, makes it durable; a deletion
 * is recorded too, so a replay never brings a deleted object back. At open the journal's files are replayed
 * (every object written again, durably) and removed. A journal file past JOURNAL_CHECKPOINT_BYTES, and every
 * journal file at close, is checkpointed: the files it recorded are fsynced, then it is removed.
 *
 * @internal
 */
export class ObjectJournal {
  readonly #directory: string;
  readonly #root: string;
  #epoch: Epoch;
  /** Journal files not yet removed: the current one, and one being checkpointed. */
  readonly #live = new Set<Epoch>();
  #checkpoint: Promise<void> = Promise.resolve();
  /** Saves not yet durable, by path: a creator that finds the object waits for these. */
  readonly #pending = new Map<string, Promise<void>>();

  readonly #unlock: () => Promise<void>;

  private constructor(root: string, directory: string, epoch: Epoch, unlock: () => Promise<void>) {
    this.#unlock = unlock;
    this.#root = root;
    this.#directory = directory;
    this.#epoch = epoch;
    this.#live.add(epoch);
  }

  /**
   * Takes the folder for this process (one writer: another live process holding it is refused with
   * `failed_precondition`), replays and removes the journal files left in `<root>/.journal`, then opens
   * a new one.
   */
  static async open(root: string, replay: JournalReplay): Promise<ObjectJournal> {
    const unlock = await lockDirectory(root, { fileName: ".lock", label: "archive folder" });
    try {
      return await ObjectJournal.#open(root, replay, unlock);
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  static async #open(root: string, replay: JournalReplay, unlock: () => Promise<void>): Promise<ObjectJournal> {
    const directory = join(root, ".journal");
    const numbers = (await namesIn(directory))
      .map((name) => /^(\d+)\.log$/.exec(name)?.[1])
      .filter((number) => number !== undefined)
      .map(Number)
      .sort((left, right) => left - right);
    for (const number of numbers) {
      const path = join(directory, `${String(number)}.log`);
      const { log, lines } = await AppendLog.open(path);
      for (const line of lines) {
        const entry = JSON.parse(line) as Entry;
        if ("p" in entry) await replay.put(entry.p, Buffer.from(entry.b, "base64"));
        else if ("m" in entry) for (const [key, body] of entry.m) await replay.put(key, Buffer.from(body, "base64"));
        else await replay.delete(entry.d);
      }
      await log.close();
      await unlink(path);
    }
    const number = (numbers.at(-1) ?? 0) + 1;
    const { log } = await AppendLog.open(join(directory, `${String(number)}.log`));
    return new ObjectJournal(root, directory, { number, log, files: new Set() }, unlock);
  }

  /** Records `body` as the object at `key` (its file already written at `path`); resolves once durable. */
  recordPut(key: string, path: string, body: Uint8Array): Promise<void> {
    return this.#record([path], { p: key, b: base64(body) });
  }

  /** Records several objects (their files already written) in one line: durable together, at once. */
  recordPuts(objects: readonly JournalObject[]): Promise<void> {
    return this.#record(
      objects.map((object) => object.path),
      { m: objects.map((object) => [object.key, base64(object.body)]) },
    );
  }

  /** Records the deletion of `key` (its file at `path` already removed); resolves once durable. */
  recordDelete(key: string, path: string): Promise<void> {
    return this.#record([path], { d: key });
  }

  /** Resolves once a save of `path` in flight is durable (at once when there is none); rejects when it failed. */
  settled(path: string): Promise<void> {
    return this.#pending.get(path) ?? Promise.resolve();
  }

  /** Whether a live journal file records `path` (a later save of it must not bypass the journal). */
  records(path: string): boolean {
    return [...this.#live].some((epoch) => epoch.files.has(path));
  }

  /**
   * Fsyncs every file the journal recorded and removes the journal (the next save starts a new one).
   * Checkpoints run one after another; one that finds nothing recorded since the last does nothing.
   */
  checkpoint(): Promise<void> {
    const run = this.#checkpoint.then(async () => {
      const previous = this.#epoch;
      if (previous.files.size === 0 && this.#live.size === 1) return;
      const { log } = await AppendLog.open(join(this.#directory, `${String(previous.number + 1)}.log`));
      this.#epoch = { number: previous.number + 1, log, files: new Set() };
      this.#live.add(this.#epoch);
      await retire(previous, this.#root, this.#directory);
      this.#live.delete(previous);
    });
    this.#checkpoint = run.catch(() => undefined);
    return run;
  }

  /** Checkpoints and closes: a clean stop leaves every object fsynced as a file and no journal. */
  async close(): Promise<void> {
    await this.#checkpoint;
    await this.#epoch.log.close();
    await retire(this.#epoch, this.#root, this.#directory, false);
    await this.#unlock();
  }

  async #record(paths: readonly string[], entry: Entry): Promise<void> {
    const epoch = this.#epoch;
    for (const path of paths) epoch.files.add(path);
    const durable = epoch.log.append(JSON.stringify(entry));
    for (const path of paths) this.#pending.set(path, durable);
    try {
      await durable;
    } finally {
      for (const path of paths) if (this.#pending.get(path) === durable) this.#pending.delete(path);
    }
    if (epoch === this.#epoch && epoch.log.sizeBytes > JOURNAL_CHECKPOINT_BYTES) void this.checkpoint().catch(() => undefined);
  }
}

/** Waits for a journal file's appends, fsyncs the files it recorded and their folders up to `root`, then removes it. */
async function retire(epoch: Epoch, root: string, directory: string, close = true): Promise<void> {
  if (close) await epoch.log.close();
  const folders = new Set<string>();
  for (const path of epoch.files) {
    for (let folder = dirname(path); folder.startsWith(root) && !folders.has(folder); folder = dirname(folder)) folders.add(folder);
    await fsyncFile(path);
  }
  for (const folder of folders) {
    try {
      await syncDirectory(folder);
    } catch (error) {
      // A folder removed since (its objects deleted): nothing in it to make durable.
      if (errnoOf(error) !== "ENOENT") throw error;
    }
  }
  await unlink(join(directory, `${String(epoch.number)}.log`));
  await syncDirectory(directory);
}

async function namesIn(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return [];
    throw error;
  }
}

async function fsyncFile(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    // Deleted since: its deletion was recorded too, and nothing is left to make durable.
    if (errnoOf(error) === "ENOENT") return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
