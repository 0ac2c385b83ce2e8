import { resolve } from "node:path";
import { AppError } from "@loupe/errors";
import { throwIfAborted } from "./abort-error.js";
import type { ArchiveStore, ArchiveStoreStats, ObjectInfo, PutOptions, PutOutcome } from "./archive-store.js";
import { assertValidRange, clipRange } from "./byte-range.js";
import { appErrorFromFsError } from "./file-errors.js";
import { assertValidFolderPrefix, assertValidKey, assertValidPrefix } from "./key-rules.js";
import type { BodyFile } from "./lmdb-body-files.js";
import { openDatabase, storeError, type Opened } from "./lmdb-database.js";
import { folderKeys, mergedKeys } from "./lmdb-keys.js";
import { lmdbPutAll, placeValue } from "./lmdb-put-all.js";
import { smallBody } from "./small-body.js";
import { createWrittenMemo } from "./written-memo.js";

/** Options of {@link createLmdbArchiveStore}. */
export interface LmdbArchiveStoreOptions {
  /** The folder of the database (created on open); relative paths resolve against the working directory. */
  directory: string;
}

/** Bodies up to this size are values in the database; larger ones (and streams of no stated size) get a file of their own. */
export const INLINE_MAX_BYTES = 256 * 1024;

/**
 * The LMDB adapter of {@link ArchiveStore} (`LOUPE_ARCHIVE_BACKEND=lmdb`), through lmdb-js: a body of up
 * to INLINE_MAX_BYTES is a value of the database; a larger one is streamed to a file of its own (fsynced
 * before the database names it; see LmdbBodyFiles), so it is never held whole in memory. A put is one
 * write transaction, visible once it resolves; concurrent writes share a commit, and a commit is flushed
 * to disk after it is visible (overlapping sync). A put resolves only once flushed, except with
 * `deferSync`: then `sync(keys)` waits for the flush, so one save's objects are made durable by one flush.
 * A crash loses nothing flushed (LMDB keeps the last flushed transaction). One process per folder (a lock
 * file, as the file store has).
 */
export function createLmdbArchiveStore(options: LmdbArchiveStoreOptions): ArchiveStore {
  const root = resolve(options.directory);
  const stats: ArchiveStoreStats = { bytesReceived: 0, requests: 0 };
  const opened = openDatabase(root);
  opened.catch(() => undefined);
  const database = async (context: string): Promise<Opened> => {
    try {
      return await opened;
    } catch (error) {
      throw storeError(error, "open the database of", context);
    }
  };
  // Small bodies this store flushed, so a marker rewritten on every save costs no flush (see WrittenMemo).
  const written = createWrittenMemo();
  const sizeOf = async (key: string, signal: AbortSignal | undefined): Promise<ObjectInfo | undefined> => {
    assertValidKey(key);
    stats.requests += 1;
    const { objects, files } = await database(`key=${key}`);
    throwIfAborted(signal, `key=${key}`);
    // A fast read's buffer is lmdb-js's shared one: its `length` is the value's, its `byteLength` the whole buffer's.
    const value = objects.getBinaryFast(key);
    if (value !== undefined) return { sizeBytes: value.length };
    const file = files.get(key);
    return file === undefined ? undefined : { sizeBytes: file.sizeBytes };
  };
  // One put as the store makes it: inline or as a body file, flushed unless deferred.
  const putObject = async (key: string, body: Uint8Array | AsyncIterable<Uint8Array>, putOptions: PutOptions, context: string): Promise<PutOutcome> => {
    const opened = await database(context);
    const { root: env, objects, files, bodies } = opened;
    const ifAbsent = putOptions.ifAbsent === true;
    const flushed = async (): Promise<void> => {
      await env.flushed;
    };
    // An object found already there is relied on only once the save that made it is flushed, as a new one.
    if (ifAbsent && (objects.doesExist(key) || files.doesExist(key))) {
      throwIfAborted(putOptions.signal, context);
      await flushed();
      return "exists";
    }
    const inline = await smallBody(body, putOptions.sizeBytes, putOptions.signal, context, INLINE_MAX_BYTES);
    let file: BodyFile | undefined;
    try {
      if (inline === undefined) file = await bodies.write(body, putOptions, context);
      throwIfAborted(putOptions.signal, context);
    } catch (error) {
      if (file !== undefined) await bodies.remove(file.name).catch(() => undefined);
      throw appErrorFromFsError(error, "write", context);
    }
    let replaced: string | undefined;
    let outcome: PutOutcome;
    try {
      outcome = await env.transaction((): PutOutcome => {
        if (file === undefined) {
          const placed = placeValue(opened, key, inline ?? new Uint8Array(0), ifAbsent);
          replaced = placed.replaced;
          return placed.outcome;
        }
        if (ifAbsent && (objects.doesExist(key) || files.doesExist(key))) return "exists";
        replaced = files.get(key)?.name;
        void files.put(key, file);
        void objects.remove(key);
        return "created";
      });
      if (putOptions.deferSync !== true || outcome === "exists") await flushed();
    } catch (error) {
      if (file !== undefined) await bodies.remove(file.name).catch(() => undefined);
      throw storeError(error, "write", context);
    }
    // A file no key names any more goes once the change is on disk (until then, a crash would name it again).
    const unnamed = outcome === "exists" ? file?.name : replaced;
    if (unnamed !== undefined) void flushed().then(() => bodies.remove(unnamed).catch(() => undefined));
    return outcome;
  };

  return {
    stats,
    async put(key, body, putOptions = {}) {
      assertValidKey(key);
      stats.requests += 1;
      const context = `key=${key}`;
      const ifAbsent = putOptions.ifAbsent === true;
      const overwrite = !ifAbsent && body instanceof Uint8Array && (putOptions.sizeBytes ?? body.byteLength) === body.byteLength;
      if (overwrite && written.holds(key, body)) {
        // This store already flushed these very bytes at this key, and nothing touched it since (a marker rewritten on every save).
        throwIfAborted(putOptions.signal, context);
        return "created";
      }
      const end = written.begin(key);
      let left: Uint8Array | undefined;
      try {
        const outcome = await putObject(key, body, putOptions, context);
        // Only a flushed write is remembered as one (a deferred one is durable after its sync).
        if (overwrite && outcome === "created" && putOptions.deferSync !== true) left = body;
        return outcome;
      } finally {
        end(left);
      }
    },
    async get(key, getOptions = {}) {
      assertValidKey(key);
      if (getOptions.range !== undefined) assertValidRange(getOptions.range);
      stats.requests += 1;
      const context = `key=${key}`;
      const { objects, files, bodies } = await database(context);
      throwIfAborted(getOptions.signal, context);
      // The fast read's buffer is reused by the next read: the bytes wanted are copied out at once.
      const value = objects.getBinaryFast(key);
      let bytes: Uint8Array;
      if (value !== undefined) {
        const { start, end } = getOptions.range === undefined ? { start: 0, end: value.length } : clipRange(getOptions.range, value.length);
        bytes = Uint8Array.prototype.slice.call(value, start, end);
      } else {
        const file = files.get(key);
        if (file === undefined) throw new AppError("not_found", `no such object [${context}]`);
        // A file deleted between the lookup and the read answers not_found, as the file store does.
        bytes = await bodies.read(file, getOptions).catch((error: unknown) => {
          throw appErrorFromFsError(error, "read", context);
        });
      }
      stats.bytesReceived += bytes.byteLength;
      return bytes;
    },
    stat: (key, callOptions = {}) => sizeOf(key, callOptions.signal),
    exists: async (key, callOptions = {}) => (await sizeOf(key, callOptions.signal)) !== undefined,
    async delete(key, callOptions = {}) {
      assertValidKey(key);
      stats.requests += 1;
      const context = `key=${key}`;
      const { root: env, objects, files, bodies } = await database(context);
      throwIfAborted(callOptions.signal, context);
      const end = written.begin(key);
      try {
        const removed = await env.transaction(() => {
          const file = files.get(key)?.name;
          void objects.remove(key);
          void files.remove(key);
          return file;
        });
        await env.flushed;
        if (removed !== undefined) await bodies.remove(removed);
      } catch (error) {
        throw storeError(error, "delete", context);
      } finally {
        end(undefined);
      }
    },
    async *list(prefix, callOptions = {}) {
      assertValidPrefix(prefix);
      const context = `prefix=${prefix}`;
      const { objects, files } = await database(context);
      yield* mergedKeys([objects, files], prefix, () => {
        stats.requests += 1;
        throwIfAborted(callOptions.signal, context);
      });
    },
    async *listFolders(prefix, callOptions = {}) {
      assertValidFolderPrefix(prefix);
      const context = `prefix=${prefix}`;
      const { objects, files } = await database(context);
      stats.requests += 1;
      throwIfAborted(callOptions.signal, context);
      yield* folderKeys([objects, files], prefix);
    },
    putAll: async (objects, callOptions = {}) => {
      stats.requests += 1;
      return lmdbPutAll(await database(`keys=${String(objects.length)}`), objects, callOptions, { inlineMaxBytes: INLINE_MAX_BYTES, memo: written });
    },
    async sync(keys, callOptions = {}) {
      if (keys.length === 0) return;
      const { root: env } = await database("sync");
      throwIfAborted(callOptions.signal, "sync");
      try {
        await env.flushed;
      } catch (error) {
        throw storeError(error, "flush", "sync");
      }
    },
    async close() {
      const handle = await opened.catch(() => undefined);
      await handle?.root.close();
      await handle?.unlock();
    },
  };
}
