import { opendir } from "node:fs/promises";
import { join } from "node:path";
import { throwIfAborted } from "./abort-error.js";
import { errnoOf } from "./file-errors.js";

interface Entry {
  name: string;
  isDirectory: boolean;
}

/**
 * Yields every stored key under `root` that starts with `prefix`, in ascending byte order, walking only the
 * directories that can hold such keys. Names starting with `.` (temporary files) are skipped.
 *
 * @internal
 */
export async function* walkKeys(root: string, prefix: string, signal: AbortSignal | undefined): AsyncGenerator<string> {
  const baseKey = prefix.slice(0, prefix.lastIndexOf("/") + 1);
  yield* walkDirectory(root, baseKey, prefix, signal);
}

/**
 * Yields the folder of every directory directly under `root/<prefix>` (`prefix` is `""` or ends with `/`),
 * as `prefix + name + "/"`, in ascending byte order; names starting with `.` are skipped.
 *
 * @internal
 */
export async function* walkFolders(root: string, prefix: string, signal: AbortSignal | undefined): AsyncGenerator<string> {
  throwIfAborted(signal, `prefix=${prefix}`);
  const folders = (await readEntries(join(root, prefix))).filter((entry) => entry.isDirectory).map((entry) => `${prefix}${entry.name}/`);
  // Sorted with their "/": "a-b/" comes before "a/".
  yield* folders.sort(compare);
}

async function* walkDirectory(root: string, directoryKey: string, prefix: string, signal: AbortSignal | undefined): AsyncGenerator<string> {
  throwIfAborted(signal, `prefix=${prefix}`);
  const entries = await readEntries(join(root, directoryKey));
  // Sorting "name/" for directories makes a depth-first walk produce keys in plain byte order ("a-c" < "a/b").
  entries.sort((left, right) => compare(sortName(left), sortName(right)));
  for (const entry of entries) {
    if (entry.isDirectory) {
      const childKey = `${directoryKey}${entry.name}/`;
      if (childKey.startsWith(prefix) || prefix.startsWith(childKey)) yield* walkDirectory(root, childKey, prefix, signal);
      continue;
    }
    const key = `${directoryKey}${entry.name}`;
    if (key.startsWith(prefix)) yield key;
  }
}

async function readEntries(path: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  try {
    for await (const dirent of await opendir(path)) {
      if (dirent.name.startsWith(".")) continue;
      if (dirent.isDirectory() || dirent.isFile()) entries.push({ name: dirent.name, isDirectory: dirent.isDirectory() });
    }
  } catch (error) {
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return [];
    throw error;
  }
  return entries;
}

function sortName(entry: Entry): string {
  return entry.isDirectory ? `${entry.name}/` : entry.name;
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
