import { open, rename, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { dirname } from "node:path";

/** Fsyncs a folder, so that a file created, renamed or removed in it survives a crash. */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes all of `chunk` at the handle's position, or at byte `position` of the file (one write may be
 * partial); returns its bytes.
 */
export async function writeAll(handle: FileHandle, chunk: string | Uint8Array, position?: number): Promise<number> {
  const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
  let offset = 0;
  while (offset < bytes.byteLength) {
    const at = position === undefined ? null : position + offset;
    const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset, at);
    offset += bytesWritten;
  }
  return bytes.byteLength;
}

/**
 * Replaces `path` with `content` atomically and durably: writes a temporary sibling (chunk by chunk
 * when `content` is a sequence), fsyncs it, renames it over `path` and fsyncs the folder. A crash
 * leaves either the old or the new file, never a mix; a failed write leaves the old file and no
 * temporary. Returns the bytes written.
 */
export async function writeFileDurably(path: string, content: string | Uint8Array | Iterable<string | Uint8Array>): Promise<number> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, "w");
  let sizeBytes = 0;
  try {
    if (typeof content === "string" || content instanceof Uint8Array) sizeBytes = await writeAll(handle, content);
    else for (const chunk of content) sizeBytes += await writeAll(handle, chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temporary, path);
  await syncDirectory(dirname(path));
  return sizeBytes;
}
