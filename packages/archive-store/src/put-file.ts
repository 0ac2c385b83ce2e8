import { randomUUID } from "node:crypto";
import { link, rename, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { throwIfAborted } from "./abort-error.js";
import type { PutOptions, PutOutcome } from "./archive-store.js";
import { bodyChunks } from "./body-chunks.js";
import type { DirectorySync } from "./directory-sync.js";
import { errnoOf } from "./file-errors.js";
import type { JournaledObjects } from "./journaled-objects.js";
import { placeObject } from "./place-object.js";
import { createTemporary, removeTemporary, writeDurably } from "./temporary-file.js";

/**
 * Writes one object of the file store atomically and durably (see createFileArchiveStore): a temporary
 * file, fsynced, renamed over `path` (or hard-linked with `ifAbsent`), then the folder fsynced.
 *
 * @internal
 */
export async function putFile(
  path: string,
  body: Uint8Array | AsyncIterable<Uint8Array>,
  options: PutOptions,
  context: string,
  directories: DirectorySync,
): Promise<PutOutcome> {
  throwIfAborted(options.signal, context);
  const ifAbsent = options.ifAbsent === true;
  // Cheap early answer for the common repeat of a content-addressed blob; link() below still decides races.
  if (ifAbsent && (await isFile(path))) return "exists";
  const directory = dirname(path);
  const temporary = join(directory, `.${randomUUID()}.tmp`);
  const { handle, durable } = await createTemporary(temporary, directory, directories);
  let moved = false;
  try {
    // An in-memory body of the declared size goes down as it is; streams are checked chunk by chunk.
    const direct = body instanceof Uint8Array && (options.sizeBytes ?? body.byteLength) === body.byteLength;
    await writeDurably(handle, direct ? body : bodyChunks(body, options.sizeBytes, options.signal, context));
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
      moved = true;
    }
    await Promise.all([directories.sync(directory), durable]);
    return "created";
  } finally {
    if (!moved) await removeTemporary(temporary);
  }
}

/** True when `path` is a file; false when missing or unreadable. @internal */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    // Any failure here only skips the shortcut; the write path reports real errors.
    return false;
  }
}

/**
 * Writes one small object of the file store through its journal (see ObjectJournal): the file is placed
 * atomically as putFile places it (renamed over `path`, or hard-linked with `ifAbsent`) but not fsynced,
 * then recorded in the journal, whose group-committed fdatasync makes it durable — at once, or with
 * `deferSync` at the next sync of its key. A creator that finds the object answers `"exists"` only once
 * the save that made it is durable. When the journal fails, a created object is removed again and the
 * put rejects.
 *
 * @internal
 */
export async function putFileJournaled(
  path: string,
  key: string,
  body: Uint8Array,
  options: PutOptions,
  context: string,
  objects: JournaledObjects,
): Promise<PutOutcome> {
  throwIfAborted(options.signal, context);
  const ifAbsent = options.ifAbsent === true;
  if (placeObject(path, body, ifAbsent) === "exists") return existing(objects, path);
  await objects.commit({ key, path, body }, ifAbsent, options.deferSync === true);
  return "created";
}

async function existing(objects: JournaledObjects, path: string): Promise<PutOutcome> {
  await objects.settle(path);
  return "exists";
}
