import { mkdir } from "node:fs/promises";
import { AppError } from "@loupe/errors";
import { lockDirectory } from "@loupe/runtime";
import type { Database, RootDatabase } from "lmdb";
import { LmdbBodyFiles, type BodyFile } from "./lmdb-body-files.js";

/** An open LMDB archive folder. */
export interface Opened {
  root: RootDatabase;
  /** Small bodies, by key. */
  objects: Database<Buffer, string>;
  /** The files of large bodies, by key. */
  files: Database<BodyFile, string>;
  bodies: LmdbBodyFiles;
  unlock: () => Promise<void>;
}

/** True when LMDB's native code loads on this platform (lmdb-js brings prebuilt binaries for the common ones). */
export async function lmdbAvailable(): Promise<boolean> {
  try {
    await import("lmdb");
    return true;
  } catch {
    // No binary for this platform, and none built.
    return false;
  }
}

/** `error` as an AppError (`internal` unless it is one already). */
export function storeError(error: unknown, action: string, context: string): AppError {
  if (error instanceof AppError) return error;
  return new AppError("internal", `lmdb archive: could not ${action} [${context}]`, { cause: error });
}

/**
 * Opens (creating) the database in `root`, locked to this process, and removes the body files no key
 * names (what a crash between writing a file and naming it left).
 */
export async function openDatabase(root: string): Promise<Opened> {
  await mkdir(root, { recursive: true });
  const unlock = await lockDirectory(root, { fileName: "loupe.lock", label: "archive folder" });
  try {
    // Loaded here: a process that keeps its archive elsewhere never loads LMDB's native code.
    const { open } = await import("lmdb");
    const env = open({ path: root, overlappingSync: true, separateFlushed: true });
    const objects = env.openDB<Buffer, string>({ name: "objects", encoding: "binary" });
    const files = env.openDB<BodyFile, string>({ name: "files", encoding: "json" });
    const bodies = new LmdbBodyFiles(root);
    // Files no key names are what a crash between writing a file and naming it left: nothing relies on them.
    const named = new Set<string>();
    for (const { value } of files.getRange()) named.add(value.name);
    await bodies.sweep((name) => named.has(name));
    return { root: env, objects, files, bodies, unlock };
  } catch (error) {
    await unlock();
    throw error;
  }
}
