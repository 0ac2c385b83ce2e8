import { linkSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { errnoOf } from "./file-errors.js";

/**
 * Places a small object's file atomically, without an fsync: its body goes to a temporary file beside it,
 * which is renamed over `path` or, with `ifAbsent`, hard-linked to it (exactly one of several creators
 * wins; the others get `"exists"`); the folder is created when missing. Synchronous on purpose: for a
 * body of at most a few hundred KiB these are page-cache operations of microseconds, cheaper than four
 * round trips through libuv's thread pool (where they would queue behind every other file operation).
 *
 * @internal
 */
export function placeObject(path: string, body: Uint8Array, ifAbsent: boolean): "placed" | "exists" {
  if (ifAbsent && isFileSync(path)) return "exists";
  const temporary = join(dirname(path), `.${randomUUID()}.tmp`);
  writeNewSync(temporary, body);
  let moved = false;
  try {
    if (!ifAbsent) {
      renameSync(temporary, path);
      moved = true;
      return "placed";
    }
    try {
      linkSync(temporary, path);
      return "placed";
    } catch (error) {
      // EEXIST on a folder is a key collision, not an existing object.
      if (errnoOf(error) === "EEXIST" && isFileSync(path)) return "exists";
      throw error;
    }
  } finally {
    if (!moved) removeSync(temporary);
  }
}

function writeNewSync(path: string, body: Uint8Array): void {
  try {
    writeFileSync(path, body, { flag: "wx" });
  } catch (error) {
    // The folder usually exists: created only when missing (a replay or a checkpoint makes its entry durable).
    if (errnoOf(error) !== "ENOENT") throw error;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body, { flag: "wx" });
  }
}

function isFileSync(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    // Any failure here only skips the shortcut; the write reports real errors.
    return false;
  }
}

function removeSync(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoOf(error) !== "ENOENT") throw error;
  }
}
