import { open, stat } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import type { GetOptions, ObjectInfo } from "./archive-store.js";
import { clipRange } from "./byte-range.js";
import { appErrorFromFsError, errnoOf } from "./file-errors.js";

/** Reads an object file, or only the range asked for. @internal */
export async function readFileRange(path: string, options: GetOptions): Promise<Uint8Array> {
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

/** What a stat of an object file says; undefined when there is no such object. @internal */
export async function statFile(path: string, key: string): Promise<ObjectInfo | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? { sizeBytes: info.size } : undefined;
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return undefined;
    throw appErrorFromFsError(error, "stat", `key=${key}`);
  }
}
