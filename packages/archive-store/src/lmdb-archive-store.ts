import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { AppError } from "@loupe/errors";
import { lockDirectory } from "@loupe/runtime";
import type { Database, RootDatabase } from "lmdb";
import { throwIfAborted } from "./abort-error.js";
import type { ArchiveStore, ArchiveStoreStats, ObjectInfo, PutOutcome } from "./archive-store.js";
import { bodyChunks } from "./body-chunks.js";
import { assertValidRange, clipRange } from "./byte-range.js";
import { assertValidKey, assertValidPrefix } from "./key-rules.js";

/** Options of {@link createLmdbArchiveStore}. */
export interface LmdbArchiveStoreOptions {
  /** The folder of the database (created on open); relative paths resolve against the working directory. */
  directory: string;
}

/** Keys read per listing page: each page is one short read transaction. */
const LIST_PAGE_KEYS = 1000;

function storeError(error: unknown, action: string, context: string): AppError {
  if (error instanceof AppError) return error;
  return new AppError("internal", `lmdb archive: could not ${action} [${context}]`, { cause: error });
}

/**
 * The LMDB adapter of {@link ArchiveStore} (`LOUPE_ARCHIVE_BACKEND=lmdb`): every object is one value of one
 * LMDB database in `directory`, through lmdb-js. A put is one write transaction, visible to readers once
 * it resolves; concurrent writes are committed together, and a commit is flushed to disk after it is
 * visible (overlapping sync). A put resolves only once flushed, except with `deferSync`: then `sync(keys)`
 * waits for the flush (of every earlier write), so a save is acknowledged after one flush for all its objects.
 * A crash loses nothing flushed: LMDB keeps the last flushed transaction. One process per folder (a lock
 * file, as the file store has). Bodies are buffered whole (LOUPE_MAX_RESULT_BYTES bounds them); a range is
 * read from the mapped value without reading the rest.
 */
export function createLmdbArchiveStore(options: LmdbArchiveStoreOptions): ArchiveStore {
  const root = resolve(options.directory);
  const stats: ArchiveStoreStats = { bytesReceived: 0, requests: 0 };
  const opened = (async () => {
    await mkdir(root, { recursive: true });
    const unlock = await lockDirectory(root, { fileName: "loupe.lock", label: "archive folder" });
    try {
      // Loaded here: a process that keeps its archive elsewhere never loads LMDB's native code.
      const { open } = await import("lmdb");
      const db: RootDatabase<Buffer, string> = open({ path: root, encoding: "binary", overlappingSync: true, separateFlushed: true });
      return { db, unlock };
    } catch (error) {
      await unlock();
      throw error;
    }
  })();
  opened.catch(() => undefined);
  const database = async (context: string): Promise<Database<Buffer, string>> => {
    try {
      return (await opened).db;
    } catch (error) {
      throw storeError(error, "open the database of", context);
    }
  };
  const sizeOf = async (key: string, signal: AbortSignal | undefined): Promise<ObjectInfo | undefined> => {
    assertValidKey(key);
    stats.requests += 1;
    const db = await database(`key=${key}`);
    throwIfAborted(signal, `key=${key}`);
    // A fast read's buffer is lmdb-js's shared one: its `length` is the value's, its `byteLength` the whole buffer's.
    const value = db.getBinaryFast(key);
    return value === undefined ? undefined : { sizeBytes: value.length };
  };
  return {
    stats,
    async put(key, body, putOptions = {}) {
      assertValidKey(key);
      stats.requests += 1;
      const context = `key=${key}`;
      const db = await database(context);
      const chunks: Uint8Array[] = [];
      for await (const chunk of bodyChunks(body, putOptions.sizeBytes, putOptions.signal, context)) chunks.push(chunk);
      throwIfAborted(putOptions.signal, context);
      const value =
        chunks.length === 1 && chunks[0] !== undefined ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength) : Buffer.concat(chunks);
      let outcome: PutOutcome;
      try {
        if (putOptions.ifAbsent === true) outcome = (await db.ifNoExists(key, () => void db.put(key, value))) ? "created" : "exists";
        else {
          await db.put(key, value);
          outcome = "created";
        }
        // An object found already there is relied on only once the save that made it is flushed, as a new one.
        if (putOptions.deferSync !== true || outcome === "exists") await db.flushed;
      } catch (error) {
        throw storeError(error, "write", context);
      }
      return outcome;
    },
    async get(key, getOptions = {}) {
      assertValidKey(key);
      if (getOptions.range !== undefined) assertValidRange(getOptions.range);
      stats.requests += 1;
      const context = `key=${key}`;
      const db = await database(context);
      throwIfAborted(getOptions.signal, context);
      // The fast read's buffer is reused by the next read (and longer than the value: `length` is the value's):
      // the bytes wanted are copied out at once.
      const value = db.getBinaryFast(key);
      if (value === undefined) throw new AppError("not_found", `no such object [${context}]`);
      const { start, end } = getOptions.range === undefined ? { start: 0, end: value.length } : clipRange(getOptions.range, value.length);
      const bytes = Uint8Array.prototype.slice.call(value, start, end);
      stats.bytesReceived += bytes.byteLength;
      return bytes;
    },
    stat: (key, callOptions = {}) => sizeOf(key, callOptions.signal),
    exists: async (key, callOptions = {}) => (await sizeOf(key, callOptions.signal)) !== undefined,
    async delete(key, callOptions = {}) {
      assertValidKey(key);
      stats.requests += 1;
      const context = `key=${key}`;
      const db = await database(context);
      throwIfAborted(callOptions.signal, context);
      try {
        await db.remove(key);
        await db.flushed;
      } catch (error) {
        throw storeError(error, "delete", context);
      }
    },
    async *list(prefix, callOptions = {}) {
      assertValidPrefix(prefix);
      const context = `prefix=${prefix}`;
      const db = await database(context);
      // Page by page from the last key seen, so no read transaction stays open while the caller works.
      let after: string | undefined;
      for (;;) {
        stats.requests += 1;
        throwIfAborted(callOptions.signal, context);
        const page: string[] = [];
        for (const key of db.getKeys({ start: after ?? prefix, limit: LIST_PAGE_KEYS + 1 })) {
          if (!key.startsWith(prefix)) break;
          if (key !== after) page.push(key);
          if (page.length === LIST_PAGE_KEYS) break;
        }
        yield* page;
        if (page.length < LIST_PAGE_KEYS) return;
        after = page[page.length - 1];
      }
    },
    async sync(keys, callOptions = {}) {
      if (keys.length === 0) return;
      const db = await database("sync");
      throwIfAborted(callOptions.signal, "sync");
      try {
        await db.flushed;
      } catch (error) {
        throw storeError(error, "flush", "sync");
      }
    },
    async close() {
      const { db, unlock } = await opened.catch(() => ({ db: undefined, unlock: undefined }));
      await db?.close();
      await unlock?.();
    },
  };
}
