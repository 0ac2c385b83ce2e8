import { open, rename } from "node:fs/promises";
import { dirname } from "node:path";

/** Fsyncs a directory so that a rename or create inside it survives a crash. */
export async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `path` with `content` atomically and durably: writes a temporary
 * sibling, fsyncs it, renames it over `path` and fsyncs the directory. A crash
 * leaves either the old or the new file, never a mix.
 */
export async function writeFileDurably(path: string, content: string | Uint8Array): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, "w");
  try {
    await handle.writeFile(content);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncDirectory(dirname(path));
}
