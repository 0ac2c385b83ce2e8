import { stat } from "node:fs/promises";
import { join } from "node:path";
import { lmdbAvailable } from "@loupe/archive-store";

/** The folder of each local backend under the data dir. */
export const LOCAL_BACKEND_FOLDERS = { fs: "archive", lmdb: "archive-lmdb" } as const;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The local backend `LOUPE_ARCHIVE_BACKEND=auto` means for `dataDir`: the one whose folder is already
 * there (a data dir keeps the backend it was started with, so what it saved stays readable), else LMDB
 * for a new data dir — or files where LMDB cannot load on this platform.
 */
export async function chooseLocalBackend(dataDir: string): Promise<"fs" | "lmdb"> {
  if (await exists(join(dataDir, LOCAL_BACKEND_FOLDERS.lmdb))) return "lmdb";
  if (await exists(join(dataDir, LOCAL_BACKEND_FOLDERS.fs))) return "fs";
  return (await lmdbAvailable()) ? "lmdb" : "fs";
}
