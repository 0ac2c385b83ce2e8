import { open, unlink } from "node:fs/promises";
import { writeAll } from "@loupe/durable-file";
import type { FileHandle } from "node:fs/promises";
import type { DirectorySync } from "./directory-sync.js";
import { errnoOf } from "./file-errors.js";

/**
 * Opens a new temporary file in `directory`, creating the folder first unless it is known; when a known
 * folder turns out to be gone, forgets it and creates it once more. `durable` settles once the folder's
 * entry is on disk.
 *
 * @internal
 */
export async function createTemporary(
  temporary: string,
  directory: string,
  directories: DirectorySync,
): Promise<{ handle: FileHandle; durable: Promise<void> }> {
  for (let attempt = 0; ; attempt++) {
    const { durable } = await directories.ensure(directory);
    // Awaited by the caller once the body is written; a failure before then is the caller's error instead.
    durable.catch(() => undefined);
    try {
      return { handle: await open(temporary, "wx"), durable };
    } catch (error) {
      if (attempt > 0 || errnoOf(error) !== "ENOENT") throw error;
      directories.forget(directory);
    }
  }
}

/** Writes `body` to `handle`, fsyncs it and closes it (also on failure). @internal */
export async function writeDurably(handle: FileHandle, body: Uint8Array | AsyncIterable<Uint8Array>): Promise<void> {
  try {
    if (body instanceof Uint8Array) await writeAll(handle, body);
    else for await (const chunk of body) await writeAll(handle, chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes a temporary file; one that is already gone is fine. @internal */
export async function removeTemporary(temporary: string): Promise<void> {
  try {
    await unlink(temporary);
  } catch (error) {
    // Never created (the open failed), or already gone: nothing to remove.
    if (errnoOf(error) !== "ENOENT") throw error;
  }
}
