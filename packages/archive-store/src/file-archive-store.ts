import { randomUUID } from "node:crypto";
import { link, mkdir, open, rename, rm, stat, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { throwIfAborted } from "./abort-error.js";
import type { ArchiveStore, ArchiveStoreStats, GetOptions, ObjectInfo, PutOptions, PutOutcome } from "./archive-store.js";
import { bodyChunks } from "./body-chunks.js";
import { assertValidRange, clipRange } from "./byte-range.js";
import { appErrorFromFsError, errnoOf } from "./file-errors.js";
import { assertValidKey, assertValidPrefix } from "./key-rules.js";
import { walkKeys } from "./walk-keys.js";

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
 * concurrent creators wins and the others see `"exists"`), and the folder is fsynced. A crash can leave
 * temporary files behind; they are never listed. Ranged reads read only the requested bytes.
 * `contentType` is ignored. Errors are AppErrors (see {@link ArchiveStore}); a key whose path collides
 * with another key's folder fails with `failed_precondition`.
 */
export function createFileArchiveStore(options: FileArchiveStoreOptions): ArchiveStore {
  const root = resolve(options.directory);
  const stats: ArchiveStoreStats = { bytesReceived: 0, requests: 0 };
  const pathOf = (key: string): string => {
    assertValidKey(key);
    return join(root, key);
  };
  const statKey = async (key: string, signal: AbortSignal | undefined): Promise<ObjectInfo | undefined> => {
    const path = pathOf(key);
    stats.requests += 1;
    throwIfAborted(signal, `key=${key}`);
    return statFile(path, key);
  };
  return {
    stats,
    async put(key, body, putOptions = {}) {
      const path = pathOf(key);
      stats.requests += 1;
      try {
        return await putFile(path, body, putOptions, `key=${key}`);
      } catch (error) {
        throw appErrorFromFsError(error, "write", `key=${key}`);
      }
    },
    async get(key, getOptions = {}) {
      const path = pathOf(key);
      if (getOptions.range !== undefined) assertValidRange(getOptions.range);
      stats.requests += 1;
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
      try {
        await unlink(path);
      } catch (error) {
        // Missing is fine; EISDIR/EPERM mean the path is a folder of other keys, i.e. not an object either.
        if (["ENOENT", "ENOTDIR", "EISDIR", "EPERM"].includes(errnoOf(error) ?? "")) return;
        throw appErrorFromFsError(error, "delete", `key=${key}`);
      }
    },
    async *list(prefix, callOptions = {}) {
      assertValidPrefix(prefix);
      stats.requests += 1;
      try {
        yield* walkKeys(root, prefix, callOptions.signal);
      } catch (error) {
        throw appErrorFromFsError(error, "list", `prefix=${prefix}`);
      }
    },
  };
}

async function putFile(
  path: string,
  body: Uint8Array | AsyncIterable<Uint8Array>,
  options: PutOptions,
  context: string,
): Promise<PutOutcome> {
  throwIfAborted(options.signal, context);
  const ifAbsent = options.ifAbsent === true;
  // Cheap early answer for the common repeat of a content-addressed blob; link() below still decides races.
  if (ifAbsent && (await isFile(path))) return "exists";
  const directory = dirname(path);
  await mkdir(directory, { recursive: true });
  const temporary = join(directory, `.${randomUUID()}.tmp`);
  try {
    await writeDurably(temporary, bodyChunks(body, options.sizeBytes, options.signal, context));
    throwIfAborted(options.signal, context);
    if (ifAbsent) {
      try {
        await link(temporary, path);
      } catch (error) {
        // EEXIST on a folder is a key collision, not an existing object.
        if (errnoOf(error) === "EEXIST" && (await isFile(path))) return "exists";
        throw error;
      }
    } else {
      await rename(temporary, path);
    }
    await syncDirectory(directory);
    return "created";
  } finally {
    await rm(temporary, { force: true });
  }
}

async function writeDurably(path: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  const handle = await open(path, "wx");
  try {
    for await (const chunk of chunks) await writeAll(handle, chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function readFileRange(path: string, options: GetOptions): Promise<Uint8Array> {
  const handle = await openObject(path);
  try {
    const { size } = await handle.stat();
    const { start, end } = clipRange(options.range ?? { start: 0, end: size }, size);
    const bytes = new Uint8Array(end - start);
    let filled = 0;
    while (filled < bytes.byteLength) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.byteLength - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === bytes.byteLength ? bytes : bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

async function openObject(path: string): Promise<FileHandle> {
  const handle = await open(path, "r");
  if ((await handle.stat()).isFile()) return handle;
  await handle.close();
  throw Object.assign(new Error("not a file"), { code: "ENOENT" });
}

async function statFile(path: string, key: string): Promise<ObjectInfo | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? { sizeBytes: info.size } : undefined;
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return undefined;
    throw appErrorFromFsError(error, "stat", `key=${key}`);
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    // Any failure here only skips the shortcut; the write path reports real errors.
    return false;
  }
}
