import { open, readFile, rename } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@loupe/errors";
import type { StateChange, StateEntry } from "./state-table.js";

/** File names inside the data directory. @internal */
export const SNAPSHOT_FILE = "state.snapshot";
/** @internal */
export const JOURNAL_FILE = "state.journal";

const SNAPSHOT_FORMAT = "loupe-state-snapshot";
const SNAPSHOT_VERSION = 1;
const WRITE_CHUNK_BYTES = 1 << 20;

/**
 * Reads the snapshot and the journal written after it. A torn last journal line (a crash
 * during an append that was never acknowledged) is ignored.
 *
 * @throws AppError `internal` when either file is corrupt
 * @internal
 */
export async function readStateFiles(directory: string): Promise<{ entries: StateEntry[]; changes: StateChange[] }> {
  const snapshot = await readIfExists(join(directory, SNAPSHOT_FILE));
  const journal = await readIfExists(join(directory, JOURNAL_FILE));
  return {
    entries: snapshot === undefined ? [] : parseSnapshot(snapshot, directory),
    changes: journal === undefined ? [] : parseJournal(journal, directory),
  };
}

/**
 * Replaces the snapshot atomically: writes a temporary file, fsyncs it, renames it over the
 * old one and fsyncs the directory, so a crash leaves either the old or the new snapshot.
 *
 * @internal
 */
export async function writeSnapshot(directory: string, entries: Iterable<StateEntry>): Promise<number> {
  const path = join(directory, SNAPSHOT_FILE);
  const temporary = `${path}.tmp`;
  const lines: string[] = [];
  for (const entry of entries) lines.push(JSON.stringify(entry));
  const header = JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, count: lines.length });
  let sizeBytes = 0;
  const handle = await open(temporary, "w");
  try {
    let chunk = header + "\n";
    for (const line of lines) {
      chunk += line + "\n";
      if (chunk.length >= WRITE_CHUNK_BYTES) {
        sizeBytes += await writeAll(handle, chunk);
        chunk = "";
      }
    }
    sizeBytes += await writeAll(handle, chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncDirectory(directory);
  return sizeBytes;
}

/** Fsyncs a directory so that a rename or a created file in it survives a crash. @internal */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes all of `text` at the current position (a single write may be partial). @internal */
export async function writeAll(handle: FileHandle, text: string): Promise<number> {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
  return bytes.length;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new AppError("unavailable", `state file unreadable [path=${path}]`, { cause: error });
  }
}

function parseSnapshot(text: string, directory: string): StateEntry[] {
  const lines = text.split("\n");
  const header = parseLine(lines[0] ?? "") as { format?: unknown; version?: unknown; count?: unknown } | undefined;
  if (header?.format !== SNAPSHOT_FORMAT || header.version !== SNAPSHOT_VERSION) {
    throw new AppError("internal", `state snapshot has an unknown format [directory=${directory}]`);
  }
  const entries = lines.slice(1, -1).map((line) => parseLine(line));
  if (lines.at(-1) !== "" || entries.length !== header.count || !entries.every(isStateEntry)) {
    throw new AppError("internal", `state snapshot is corrupt [directory=${directory}]`);
  }
  return entries;
}

function parseJournal(text: string, directory: string): StateChange[] {
  // Everything after the last newline is an append that never completed.
  const lines = text.split("\n").slice(0, -1);
  const changes: StateChange[] = [];
  for (const [index, line] of lines.entries()) {
    const change = parseLine(line);
    if (!isStateChange(change)) {
      throw new AppError("internal", `state journal is corrupt [directory=${directory}, line=${index + 1}]`);
    }
    changes.push(change);
  }
  return changes;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

function isStateEntry(value: unknown): value is StateEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Partial<StateEntry>;
  return typeof entry.key === "string" && typeof entry.value === "string" && (entry.expiresAtMs === undefined || typeof entry.expiresAtMs === "number");
}

function isStateChange(value: unknown): value is StateChange {
  if (typeof value !== "object" || value === null) return false;
  const change = value as { op?: unknown; key?: unknown; prefix?: unknown };
  switch (change.op) {
    case "set":
      return isStateEntry(value);
    case "delete":
      return typeof change.key === "string";
    case "deletePrefix":
      return typeof change.prefix === "string";
    default:
      return false;
  }
}
