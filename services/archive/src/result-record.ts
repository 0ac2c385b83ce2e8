import { create } from "@bufbuild/protobuf";
import { recordKey, type ArchiveStore, type PutOutcome } from "@loupe/archive-store";
import { AppError, isAppError } from "@loupe/errors";
import { ResultRecordSchema, type PutHeader, type ResultRecord, type ToolKind } from "@loupe/proto";
import type { LineIndex } from "./line-index.js";
import { encodeRecordObject, parseRecordObject, type LoadedResult } from "./record-object.js";

export type { LoadedResult } from "./record-object.js";

/** A per-result record as stored (JSON): beside the content-addressed blob, or with the content in the same object (inline). */
export interface StoredRecord {
  resultId: string;
  revision: string;
  sessionId: string;
  source: string;
  toolName: string;
  kind: ToolKind;
  path: string;
  sizeBytes: number;
  lineCount: number;
  createdAtMs: number;
  expiresAtMs: number;
  /** Where the JSON part of a text + JSON result starts (bytes). */
  structuredStartByte?: number;
  /** Which part of the file a file read covered, when not all of it (absent in records stored before scopes were kept). */
  readScope?: string;
  /** Set for a medium saved as a result of its own: its media type. */
  mimeType?: string;
  /** True when the record's object carries the content itself (no blob, line index or reference marker; see encodeRecordObject). */
  inline?: true;
}

/** The proto form of a stored record. */
export function toResultRecord(stored: StoredRecord): ResultRecord {
  const { inline: _inline, ...record } = stored;
  return create(ResultRecordSchema, {
    ...record,
    sizeBytes: BigInt(record.sizeBytes),
    createdAtMs: BigInt(record.createdAtMs),
    expiresAtMs: BigInt(record.expiresAtMs),
  });
}

/**
 * Loads a record; expired records answer like missing ones, saying so.
 * @throws AppError `not_found` (unknown or expired result)
 */
export async function loadRecord(store: ArchiveStore, tenant: string, resultId: string, nowMs: number, signal?: AbortSignal): Promise<StoredRecord> {
  return (await loadResult(store, tenant, resultId, nowMs, signal)).record;
}

/**
 * Loads a record and, when it is inline, its content; expired records answer like missing ones, saying so.
 * @throws AppError `not_found` (unknown or expired result)
 */
export async function loadResult(store: ArchiveStore, tenant: string, resultId: string, nowMs: number, signal?: AbortSignal): Promise<LoadedResult> {
  let bytes: Uint8Array;
  try {
    bytes = await store.get(recordKey(tenant, resultId), signal ? { signal } : {});
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new AppError("not_found", `result not found [result_id=${resultId}]`);
    throw error;
  }
  const loaded = parseRecordObject(bytes);
  const { expiresAtMs } = loaded.record;
  if (expiresAtMs <= nowMs) {
    throw new AppError("not_found", `result expired [result_id=${resultId}, expired_at=${new Date(expiresAtMs).toISOString()}]`);
  }
  return loaded;
}

/** How a record is written: the caller's signal, its durability left to the caller's `store.sync`, and the content an inline record carries. */
export interface RecordWrite {
  signal?: AbortSignal | undefined;
  deferSync?: boolean;
  /** The content, for a record that carries it (see encodeRecordObject); absent for one beside a blob. */
  content?: Uint8Array | undefined;
}

/** Puts a record's object (see encodeRecordObject) under its key, as `write` says; `ifAbsent` for a conditional create. */
function putRecordObject(store: ArchiveStore, key: string, record: StoredRecord, write: RecordWrite, ifAbsent: boolean): Promise<PutOutcome> {
  return store.put(key, encodeRecordObject(record, write.content), {
    ...(ifAbsent ? { ifAbsent } : {}),
    contentType: write.content === undefined ? "application/json" : "application/octet-stream",
    ...(write.signal ? { signal: write.signal } : {}),
    ...(write.deferSync === true ? { deferSync: true } : {}),
  });
}

/** Saves a record (with its content when `write.content` is given: an inline record) unless one exists under its id; returns the stored one. */
export async function saveRecord(store: ArchiveStore, tenant: string, record: StoredRecord, write: RecordWrite = {}): Promise<StoredRecord> {
  const outcome = await putRecordObject(store, recordKey(tenant, record.resultId), record, write, true);
  if (outcome === "created") return record;
  return settleExistingRecord(store, tenant, record, write);
}

/**
 * What a save answers when a record already exists under its id: the stored one when it names the same
 * content; a torn leftover (not JSON, or an inline record's content cut short: a crash before it was
 * durable) is replaced by `record`.
 * @throws AppError `already_exists` when the stored record names other content
 */
export async function settleExistingRecord(store: ArchiveStore, tenant: string, record: StoredRecord, write: RecordWrite = {}): Promise<StoredRecord> {
  const key = recordKey(tenant, record.resultId);
  let existing: StoredRecord;
  try {
    existing = parseRecordObject(await store.get(key)).record;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // A torn leftover of a Put that was never acknowledged (a crash before it was durable): this one replaces it.
    await putRecordObject(store, key, record, write, false);
    return record;
  }
  if (existing.revision !== record.revision) {
    throw new AppError("already_exists", `result id already names other content [result_id=${record.resultId}]`);
  }
  return existing;
}

/**
 * The record of a Put whose content has `index`.
 * @throws AppError `invalid_argument` when the header's structured_start_byte lies beyond the content
 */
export function recordOf(header: PutHeader, index: LineIndex, nowMs: number, expiresAtMs: number): StoredRecord {
  const record: StoredRecord = {
    resultId: header.resultId,
    revision: header.revision,
    sessionId: header.sessionId,
    source: header.source,
    toolName: header.toolName,
    kind: header.kind,
    path: header.path,
    sizeBytes: index.sizeBytes,
    lineCount: index.lineCount,
    createdAtMs: nowMs,
    expiresAtMs,
    ...(header.structuredStartByte === undefined ? {} : { structuredStartByte: header.structuredStartByte }),
    ...(header.readScope ? { readScope: header.readScope } : {}),
    ...(header.mimeType ? { mimeType: header.mimeType } : {}),
  };
  if (header.structuredStartByte !== undefined && header.structuredStartByte > index.sizeBytes) {
    throw new AppError(
      "invalid_argument",
      `structured_start_byte beyond the content [structured_start_byte=${String(header.structuredStartByte)}, size=${String(index.sizeBytes)}]`,
    );
  }
  return record;
}

/**
 * Reads a record as stored, expired or not; undefined when there is none.
 * @throws AppError from the store other than `not_found`
 */
export async function readStoredRecord(store: ArchiveStore, tenant: string, resultId: string, signal?: AbortSignal): Promise<StoredRecord | undefined> {
  try {
    return parseRecordObject(await store.get(recordKey(tenant, resultId), signal ? { signal } : {})).record;
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return undefined;
    throw error;
  }
}
