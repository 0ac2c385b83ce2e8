import { create } from "@bufbuild/protobuf";
import { recordKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError, isAppError } from "@loupe/errors";
import { ResultRecordSchema, type ResultRecord, type ToolKind } from "@loupe/proto";

/** A per-result record as stored (JSON) beside the content-addressed blob. */
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
}

/** The proto form of a stored record. */
export function toResultRecord(record: StoredRecord): ResultRecord {
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
  let bytes: Uint8Array;
  try {
    bytes = await store.get(recordKey(tenant, resultId), signal ? { signal } : {});
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw new AppError("not_found", `result not found [result_id=${resultId}]`);
    throw error;
  }
  const record = JSON.parse(new TextDecoder().decode(bytes)) as StoredRecord;
  if (record.expiresAtMs <= nowMs) {
    throw new AppError("not_found", `result expired [result_id=${resultId}, expired_at=${new Date(record.expiresAtMs).toISOString()}]`);
  }
  return record;
}

/** Saves a record unless one exists under its id; returns the stored one. */
export async function saveRecord(store: ArchiveStore, tenant: string, record: StoredRecord, signal?: AbortSignal, deferSync = false): Promise<StoredRecord> {
  const key = recordKey(tenant, record.resultId);
  const outcome = await store.put(key, new TextEncoder().encode(JSON.stringify(record)), {
    ifAbsent: true,
    contentType: "application/json",
    ...(signal ? { signal } : {}),
    ...(deferSync ? { deferSync } : {}),
  });
  if (outcome === "created") return record;
  let existing: StoredRecord;
  try {
    existing = JSON.parse(new TextDecoder().decode(await store.get(key))) as StoredRecord;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // A torn leftover of a Put that was never acknowledged (a crash before it was durable): this one replaces it.
    await store.put(key, new TextEncoder().encode(JSON.stringify(record)), {
      contentType: "application/json",
      ...(signal ? { signal } : {}),
      ...(deferSync ? { deferSync } : {}),
    });
    return record;
  }
  if (existing.revision !== record.revision) {
    throw new AppError("already_exists", `result id already names other content [result_id=${record.resultId}]`);
  }
  return existing;
}
