import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { pageText, recoverJsonText, type TokenCounter } from "@loupe/projection";
import type { RecoverResponseSchema, ResultRecord } from "@loupe/proto";
import type { ArchiveClient } from "@loupe/archive-client";
import { encodeCursor, type CursorState, type JsonCursor } from "./cursor.js";
import { markStale } from "./mark-stale.js";
import type { PathRevisions } from "./path-revisions.js";
import { shapeSaved, type ViewSources } from "./recover-view.js";

type RecoverResponseInit = MessageInitShape<typeof RecoverResponseSchema>;

/** Which part of a structured result to serve, and from which character of its text. */
export interface JsonRequest {
  resultId: string;
  pointer: string;
  itemStart?: number;
  itemEnd?: number;
  offset: number;
  expectedRevision: string;
  /** The revision a cursor was bound to ("" for a first request). */
  cursorRevision: string;
  /** A field view to serve the result shaped by ("" or undefined: the saved value as it is). */
  view?: string;
  /** The digest of the view's definition a cursor was made under (a changed view refuses the cursor). */
  viewDigest?: string;
}

/** What a JSON recovery needs. */
export interface JsonRecoverDeps extends ViewSources {
  archive: ArchiveClient;
  counter: TokenCounter;
  pathRevisions: PathRevisions;
}

// One Read answers at most this much; larger results are read in pieces.
const READ_BYTES = 8 * 1024 * 1024;

/** A saved result's bytes, whole (read in pieces of at most 8 MiB), and its record. */
export async function readWhole(
  archive: ArchiveClient,
  tenant: string,
  resultId: string,
  signal?: AbortSignal,
): Promise<{ bytes: Uint8Array; record: ResultRecord }> {
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (;;) {
    const read = await archive.read(tenant, { resultId, startByte: start, maxBytes: READ_BYTES }, signal);
    if (!read.record) throw new AppError("internal", "archive read answered without a record");
    pieces.push(read.data);
    start = read.endByte;
    if (read.endByte >= read.rangeEndByte) return { bytes: Buffer.concat(pieces), record: read.record };
  }
}

function jsonCursor(request: JsonRequest, offset: number, viewDigest: string | undefined): JsonCursor {
  return {
    pointer: request.pointer,
    offset,
    ...(request.itemStart === undefined ? {} : { itemStart: request.itemStart }),
    ...(request.itemEnd === undefined ? {} : { itemEnd: request.itemEnd }),
    ...(viewDigest === undefined || request.view === undefined ? {} : { view: request.view, viewDigest }),
  };
}

/**
 * Serves the value at a JSON pointer of a saved structured result (or a run
 * of its array items) as text: strings as written, arrays and objects one
 * compact item or member per line, paged within the budget with a cursor for
 * the rest. With a view named, the value is first shaped by that field view
 * (the pointer then addresses the shaped value).
 * @throws AppError `not_found` (pointer names nothing), `invalid_argument` (also: no such view for the tool), `failed_precondition` (revision or view changed)
 */
export async function recoverJson(
  request: JsonRequest,
  tenant: string,
  budgetTokens: number,
  deps: JsonRecoverDeps,
  signal?: AbortSignal,
): Promise<RecoverResponseInit> {
  const { counter, archive } = deps;
  const { bytes, record } = await readWhole(archive, tenant, request.resultId, signal);
  if (request.cursorRevision !== "" && request.cursorRevision !== record.revision) {
    throw new AppError("failed_precondition", `cursor revision differs from the result [cursor=${request.cursorRevision}, result=${record.revision}]`);
  }
  if (request.expectedRevision !== "" && request.expectedRevision !== record.revision) {
    throw new AppError("failed_precondition", `revision differs [expected=${request.expectedRevision}, actual=${record.revision}]`);
  }
  if (record.mimeType !== "")
    throw new AppError("invalid_argument", `a medium is read whole: give only its result_id [result_id=${record.resultId}, mime_type=${record.mimeType}]`);
  // In a text + JSON result, pointers address the JSON part.
  // Decoded once, from where the JSON starts (the whole result when it is JSON only).
  const structured = new TextDecoder().decode(bytes.subarray(record.structuredStartByte ?? 0));
  let value: unknown;
  try {
    value = JSON.parse(structured);
  } catch {
    // The saved result is text, not one JSON value: pointers name nothing in it.
    throw new AppError("invalid_argument", `result is not a JSON value; recover it by lines [result_id=${request.resultId}]`);
  }
  let viewDigest: string | undefined;
  if (request.view !== undefined && request.view !== "") {
    const shaped = await shapeSaved(value, record, request.view, tenant, deps);
    if (request.viewDigest !== undefined && request.viewDigest !== shaped.digest) {
      throw new AppError(
        "failed_precondition",
        `view "${request.view}" changed since the cursor was made; ask for the view again [result_id=${request.resultId}]`,
      );
    }
    value = shaped.value;
    viewDigest = shaped.digest;
  }
  const selection = {
    jsonPointer: request.pointer,
    ...(request.itemStart === undefined ? {} : { itemStart: request.itemStart }),
    ...(request.itemEnd === undefined ? {} : { itemEnd: request.itemEnd }),
  };
  const served = recoverJsonText(value, selection);
  const rest = served.slice(request.offset);
  const page = rest === "" ? { text: "" } : pageText(rest, budgetTokens, counter, true);
  const next = request.offset + page.text.length;
  const response: RecoverResponseInit = {
    parts: [{ content: { case: "text", value: page.text } }],
    revision: record.revision,
    resultId: record.resultId,
    totalLines: record.lineCount,
    totalBytes: Number(record.sizeBytes),
  };
  if (next < served.length) {
    const cursor: CursorState = {
      tenant,
      resultId: record.resultId,
      revision: record.revision,
      startByte: 0,
      endByte: 0,
      line: 0,
      atLineStart: false,
      json: jsonCursor(request, next, viewDigest),
    };
    response.nextCursor = encodeCursor(cursor);
  }
  await markStale(response, record, tenant, deps.pathRevisions);
  return response;
}
