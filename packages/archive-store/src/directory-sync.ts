import { mkdir } from "node:fs/promises";
import { syncDirectory } from "@loupe/durable-file";
import { dirname, sep } from "node:path";

/**
 * Creates the folders of a file store and makes their entries durable, doing the work once for every
 * caller that needs it.
 *
 * @internal
 */
export interface DirectorySync {
  /**
   * Makes `directory` (the root or a folder below it) exist; resolves once it does, with `durable`, which
   * settles once the entries of `directory` and of every ancestor up to the root are on disk. Folders are
   * remembered (up to a bound) once durable, so a known folder costs nothing.
   */
  ensure(directory: string): Promise<{ durable: Promise<void> }>;
  /**
   * fsyncs `directory`: resolves once every entry changed in it before the call is on disk. Callers that
   * ask while an fsync is running share the next one, started after it.
   */
  sync(directory: string): Promise<void>;
  /** Forgets `directory` and the folders below it (one of them was found missing). */
  forget(directory: string): void;
}

/** Folders remembered as existing and durable; the least recently used go first past this bound. */
export const MAX_KNOWN_DIRECTORIES = 4096;

const DONE = Promise.resolve();

interface SyncState {
  running: Promise<void>;
  queued: Promise<void> | undefined;
}

/** Options of {@link createDirectorySync}. @internal */
export interface DirectorySyncOptions {
  /** The fsync of one folder; defaults to opening the folder and syncing it. */
  fsyncDirectory?: (directory: string) => Promise<void>;
  /** How many folders to remember; default {@link MAX_KNOWN_DIRECTORIES}. */
  maxKnown?: number;
}

/**
 * Creates the {@link DirectorySync} of a store whose objects live under `root` (an absolute path).
 *
 * @internal
 */
export function createDirectorySync(root: string, options: DirectorySyncOptions = {}): DirectorySync {
  const fsyncDirectory = options.fsyncDirectory ?? syncDirectory;
  const maxKnown = options.maxKnown ?? MAX_KNOWN_DIRECTORIES;
  const known = new Set<string>();
  const ensuring = new Map<string, { exists: Promise<void>; durable: Promise<void> }>();
  const syncs = new Map<string, SyncState>();

  const start = (directory: string): Promise<void> => {
    const state: SyncState = { running: DONE, queued: undefined };
    state.running = fsyncDirectory(directory).finally(() => {
      // A queued fsync replaces this state when it starts; without one, the folder has no fsync running.
      if (syncs.get(directory) === state && state.queued === undefined) syncs.delete(directory);
    });
    syncs.set(directory, state);
    return state.running;
  };

  const sync = (directory: string): Promise<void> => {
    const state = syncs.get(directory);
    if (state === undefined) return start(directory);
    // The running fsync may have begun before the caller's change: the next one, after it, covers it.
    state.queued ??= state.running.then(
      () => start(directory),
      () => start(directory),
    );
    return state.queued;
  };

  const remember = (directory: string): void => {
    known.delete(directory);
    known.add(directory);
    if (known.size > maxKnown) known.delete(known.values().next().value as string);
  };

  const create = (directory: string): { exists: Promise<void>; durable: Promise<void> } => {
    const exists = mkdir(directory, { recursive: true }).then(() => undefined);
    // A folder's entry lives in its parent: sync the parent of each folder not yet known durable, up to the
    // root's (folders made by an earlier process that crashed may never have been synced).
    const durable = exists.then(async () => {
      const chain: string[] = [];
      for (let folder = directory; !known.has(folder); folder = dirname(folder)) {
        chain.push(folder);
        if (folder === root || dirname(folder) === folder) break;
      }
      await Promise.all(chain.map((folder) => sync(dirname(folder))));
      for (const folder of chain.reverse()) remember(folder);
    });
    const pending = { exists, durable };
    ensuring.set(directory, pending);
    void durable.then(
      () => ensuring.delete(directory),
      () => ensuring.delete(directory),
    );
    return pending;
  };

  return {
    async ensure(directory) {
      if (known.has(directory)) {
        remember(directory);
        return { durable: DONE };
      }
      const pending = ensuring.get(directory) ?? create(directory);
      await pending.exists;
      return { durable: pending.durable };
    },
    sync,
    forget(directory) {
      for (const folder of known) {
        if (folder === directory || folder.startsWith(`${directory}${sep}`)) known.delete(folder);
      }
    },
  };
}
