import { unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { throwIfAborted } from "./abort-error.js";
import type { ArchiveStore, ArchiveStoreStats, ObjectInfo } from "./archive-store.js";
import { createDirectorySync } from "./directory-sync.js";
import { JournaledObjects } from "./journaled-objects.js";
import { ObjectJournal } from "./object-journal.js";
import { readFileRange, statFile } from "./read-file.js";
import { smallBody } from "./small-body.js";
import { putFile, putFileJournaled } from "./put-file.js";
import { createWrittenMemo } from "./written-memo.js";
import { assertValidRange } from "./byte-range.js";
import { appErrorFromFsError, errnoOf } from "./file-errors.js";
import { assertValidFolderPrefix, assertValidKey, assertValidPrefix } from "./key-rules.js";
import { walkFolders, walkKeys } from "./walk-keys.js";

/** Options of {@link createFileArchiveStore}. */
export interface FileArchiveStoreOptions {
  /** The folder holding the objects (created on first write); relative paths resolve against the working directory. */
  directory: string;
}

/**
 * The filesystem adapter of {@link ArchiveStore}, the archive of embedded mode: key `a/b/c` is the file
 * `<directory>/a/b/c`.
 *
 * Writes are atomic and durable: the body goes to a temporary file (`.<uuid>.tmp`, same folder), is
 * fsynced, then renamed over the key (or, with `ifAbsent`, hard-linked to it, so exactly one of several
 * concurrent creators wins and the others see `"exists"`), and the folder is fsynced; a put resolves only
 * then. A folder is created once, with the parents of every folder it creates fsynced, and remembered;
 * concurrent puts into one folder share its fsyncs (each waits for one begun after its own rename). A
 * put without `ifAbsent` of a small body this store already wrote to the key, with no write or delete of
 * the key since, answers at once: the store assumes it is the only writer of its folder (embedded mode
 * locks its data dir). A crash can leave temporary files behind; they are never listed. Ranged reads read
 * only the requested bytes. `contentType` is ignored. Errors are AppErrors (see {@link ArchiveStore}); a
 * key whose path collides with another key's folder fails with `failed_precondition`.
 */
export function createFileArchiveStore(options: FileArchiveStoreOptions): ArchiveStore {
  const root = resolve(options.directory);
  const stats: ArchiveStoreStats = { bytesReceived: 0, requests: 0 };
  const directories = createDirectorySync(root);
  const written = createWrittenMemo();
  const pathOf = (key: string): string => {
    assertValidKey(key);
    return join(root, key);
  };
  // What a crash left in the journal is written again before any call is served.
  const opened = ObjectJournal.open(root, {
    put: async (key, body) => void (await putFile(pathOf(key), body, {}, `key=${key}`, directories)),
    delete: async (key) => {
      try {
        await unlink(pathOf(key));
      } catch (error) {
        if (errnoOf(error) !== "ENOENT") throw error;
      }
    },
  });
  const journaled = opened.then((journal) => ({ journal, objects: new JournaledObjects(journal) }));
  journaled.catch(() => undefined);
  const journal = async (): Promise<{ journal: ObjectJournal; objects: JournaledObjects }> => {
    try {
      return await journaled;
    } catch (error) {
      throw appErrorFromFsError(error, "open the journal of", "key=.journal");
    }
  };
  const statKey = async (key: string, signal: AbortSignal | undefined): Promise<ObjectInfo | undefined> => {
    const path = pathOf(key);
    stats.requests += 1;
    await journal();
    throwIfAborted(signal, `key=${key}`);
    return statFile(path, key);
  };
  return {
    stats,
    async put(key, body, putOptions = {}) {
      const path = pathOf(key);
      stats.requests += 1;
      const overwrite = putOptions.ifAbsent !== true && body instanceof Uint8Array && (putOptions.sizeBytes ?? body.byteLength) === body.byteLength;
      if (overwrite && written.holds(path, body)) {
        // This store already made these very bytes durable at this key, and nothing touched it since.
        throwIfAborted(putOptions.signal, `key=${key}`);
        return "created";
      }
      const end = written.begin(path);
      let left: Uint8Array | undefined;
      try {
        const { journal: objectJournal, objects } = await journal();
        const small = await smallBody(body, putOptions.sizeBytes, putOptions.signal, `key=${key}`);
        let outcome;
        if (small !== undefined) outcome = await putFileJournaled(path, key, small, putOptions, `key=${key}`, objects);
        else {
          // A large body is fsynced as a file: no journal line may replay an older body over it.
          if (objectJournal.records(path)) await objectJournal.checkpoint();
          outcome = await putFile(path, body, putOptions, `key=${key}`, directories);
        }
        // Only a durable write is remembered as one (a deferred one is durable after its sync).
        if (overwrite && (small === undefined || putOptions.deferSync !== true)) left = body;
        return outcome;
      } catch (error) {
        throw appErrorFromFsError(error, "write", `key=${key}`);
      } finally {
        end(left);
      }
    },
    async get(key, getOptions = {}) {
      const path = pathOf(key);
      if (getOptions.range !== undefined) assertValidRange(getOptions.range);
      stats.requests += 1;
      await journal();
      throwIfAborted(getOptions.signal, `key=${key}`);
      try {
        const bytes = await readFileRange(path, getOptions);
        stats.bytesReceived += bytes.byteLength;
        return bytes;
      } catch (error) {
        throw appErrorFromFsError(error, "read", `key=${key}`);
      }
    },
    stat: (key, callOptions = {}) => statKey(key, callOptions.signal),
    exists: async (key, callOptions = {}) => (await statKey(key, callOptions.signal)) !== undefined,
    async delete(key, callOptions = {}) {
      const path = pathOf(key);
      stats.requests += 1;
      throwIfAborted(callOptions.signal, `key=${key}`);
      const end = written.begin(path);
      try {
        const { journal: objectJournal, objects } = await journal();
        objects.forget(path);
        let removed = true;
        try {
          await unlink(path);
        } catch (error) {
          // Missing is fine; EISDIR/EPERM mean the path is a folder of other keys, i.e. not an object either.
          if (!["ENOENT", "ENOTDIR", "EISDIR", "EPERM"].includes(errnoOf(error) ?? "")) throw error;
          removed = false;
        }
        // Recorded, so that replaying the journal never brings the object back.
        if (removed || objectJournal.records(path)) await objectJournal.recordDelete(key, path);
      } catch (error) {
        throw appErrorFromFsError(error, "delete", `key=${key}`);
      } finally {
        end(undefined);
      }
    },
    async sync(keys, callOptions = {}) {
      const paths = keys.map(pathOf);
      const { objects } = await journal();
      throwIfAborted(callOptions.signal, `keys=${String(keys.length)}`);
      try {
        await objects.sync(paths);
      } catch (error) {
        throw appErrorFromFsError(error, "sync", `keys=${String(keys.length)}`);
      }
    },
    async close() {
      await (await journal()).journal.close();
    },
    async *list(prefix, callOptions = {}) {
      assertValidPrefix(prefix);
      stats.requests += 1;
      await journal();
      try {
        yield* walkKeys(root, prefix, callOptions.signal);
      } catch (error) {
        throw appErrorFromFsError(error, "list", `prefix=${prefix}`);
      }
    },
    async *listFolders(prefix, callOptions = {}) {
      assertValidFolderPrefix(prefix);
      stats.requests += 1;
      await journal();
      try {
        yield* walkFolders(root, prefix, callOptions.signal);
      } catch (error) {
        throw appErrorFromFsError(error, "list", `prefix=${prefix}`);
      }
    },
  };
}
