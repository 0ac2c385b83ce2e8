import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileDurably } from "@loupe/durable-file";
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
 * Reads the snapshot (the journal's lines are read when the journal opens).
 *
 * @throws AppError `internal` when it is corrupt
 * @internal
 */
export async function readSnapshot(directory: string): Promise<StateEntry[]> {
  const snapshot = await readIfExists(join(directory, SNAPSHOT_FILE));
  return snapshot === undefined ? [] : parseSnapshot(snapshot, directory);
}

/**
 * Replaces the snapshot atomically and durably (see writeFileDurably), so a crash leaves either
 * the old or the new snapshot. Returns its size in bytes.
 *
 * @internal
 */
export async function writeSnapshot(directory: string, entries: Iterable<StateEntry>): Promise<number> {
  const lines: string[] = [];
  for (const entry of entries) lines.push(JSON.stringify(entry));
  const header = JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, count: lines.length });
  return writeFileDurably(join(directory, SNAPSHOT_FILE), chunked([header, ...lines]));
}

function* chunked(lines: readonly string[]): Iterable<string> {
  let chunk = "";
  for (const line of lines) {
    chunk += line + "\n";
    if (chunk.length >= WRITE_CHUNK_BYTES) {
      yield chunk;
      chunk = "";
    }
  }
  yield chunk;
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

/**
 * The changes of the journal's complete lines.
 *
 * @throws AppError `internal` when a line is not a change
 * @internal
 */
export function parseJournal(lines: readonly string[], directory: string): StateChange[] {
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
