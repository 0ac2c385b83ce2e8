import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { pageText, utf8Length, type TokenCounter } from "@loupe/projection";
import type { ReadResponse, RecoverRequest, RecoverResponseSchema } from "@loupe/proto";
import type { ArchiveClient } from "@loupe/archive-client";
import { MAX_BUDGET_TOKENS } from "@loupe/rules";
import { decodeCursor, encodeCursor, type CursorState } from "./cursor.js";
import { markStale } from "./mark-stale.js";
import type { PathRevisions } from "./path-revisions.js";
import { recoverJson } from "./recover-json.js";
import { recoverMedium } from "./recover-medium.js";
import type { ViewSources } from "./recover-view.js";
import { isPatternCursor, recoverPattern } from "./recover-pattern.js";
import { validatePatternRequest, validateRecoverRequest } from "./validate-recover.js";

type RecoverResponseInit = MessageInitShape<typeof RecoverResponseSchema>;

/** What Recover needs. */
export interface RecoverDeps extends ViewSources {
  archive: ArchiveClient;
  counter: TokenCounter;
  defaultBudgetTokens: number;
  pathRevisions: PathRevisions;
}

// Bytes fetched per token of budget: generous, so a page is rarely short of text to fill it.
const WINDOW_BYTES_PER_TOKEN = 12;

function itemRange(itemStart: number | undefined, itemEnd: number | undefined): { itemStart?: number; itemEnd?: number } {
  return { ...(itemStart === undefined ? {} : { itemStart }), ...(itemEnd === undefined ? {} : { itemEnd }) };
}

/** Length of the longest prefix of `bytes` that ends on a UTF-8 character boundary. */
function completePrefixLength(bytes: Uint8Array): number {
  const end = bytes.byteLength;
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && ((bytes[end - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead === undefined || lead < 0x80) return end;
  const width = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return back + 1 >= width ? end : end - back - 1;
}

/**
 * Serves part of a saved result within the budget: whole lines, or bytes of a
 * line longer than the budget, with a cursor for the rest of the range.
 * @throws AppError `invalid_argument`, `not_found`, `failed_precondition` (revision differs)
 */
export async function recover(request: RecoverRequest, tenant: string, deps: RecoverDeps, signal?: AbortSignal): Promise<RecoverResponseInit> {
  if (request.pattern !== "" || (request.cursor !== "" && isPatternCursor(request.cursor))) {
    validatePatternRequest(request);
    return recoverPattern(request, tenant, deps, signal);
  }
  const selector = validateRecoverRequest(request);
  const budgetTokens = Math.min(request.budgetTokens === 0 ? deps.defaultBudgetTokens : request.budgetTokens, MAX_BUDGET_TOKENS);
  const windowBytes = budgetTokens * WINDOW_BYTES_PER_TOKEN;
  let read: ReadResponse;
  let cursor: CursorState | undefined;
  if (selector === "json") {
    const json = {
      resultId: request.resultId,
      pointer: request.jsonPointer ?? "",
      offset: 0,
      expectedRevision: request.expectedRevision,
      cursorRevision: "",
      view: request.view,
    };
    return recoverJson({ ...json, ...itemRange(request.itemStart, request.itemEnd) }, tenant, budgetTokens, deps, signal);
  }
  if (selector === "cursor") {
    cursor = decodeCursor(request.cursor, tenant, request.resultId);
    if (cursor.json) {
      const { pointer, offset, view, viewDigest } = cursor.json;
      const json = {
        resultId: cursor.resultId,
        pointer,
        offset,
        expectedRevision: request.expectedRevision,
        cursorRevision: cursor.revision,
        ...(view === undefined ? {} : { view, viewDigest }),
      };
      return recoverJson({ ...json, ...itemRange(cursor.json.itemStart, cursor.json.itemEnd) }, tenant, budgetTokens, deps, signal);
    }
    read = await deps.archive.read(tenant, { resultId: cursor.resultId, startByte: cursor.startByte, endByte: cursor.endByte, maxBytes: windowBytes }, signal);
  } else if (selector === "lines") {
    read = await deps.archive.read(
      tenant,
      {
        resultId: request.resultId,
        startLine: request.startLine ?? 1,
        ...(request.endLine === undefined ? {} : { endLine: request.endLine }),
        maxBytes: windowBytes,
      },
      signal,
    );
  } else {
    read = await deps.archive.read(
      tenant,
      {
        resultId: request.resultId,
        startByte: request.startByte ?? 0,
        ...(request.endByte === undefined ? {} : { endByte: request.endByte }),
        maxBytes: windowBytes,
        withStartLine: true,
      },
      signal,
    );
  }
  const record = read.record;
  if (!record) throw new AppError("internal", "archive read answered without a record");
  if (record.mimeType !== "") return recoverMedium(request, read, record, tenant, deps.archive, signal);
  if (cursor && cursor.revision !== record.revision) {
    throw new AppError("failed_precondition", `cursor revision differs from the result [cursor=${cursor.revision}, result=${record.revision}]`);
  }
  if (request.expectedRevision !== "" && request.expectedRevision !== record.revision) {
    throw new AppError("failed_precondition", `revision differs [expected=${request.expectedRevision}, actual=${record.revision}]`);
  }
  const complete = read.endByte === read.rangeEndByte;
  const usable = complete ? read.data : read.data.subarray(0, completePrefixLength(read.data));
  const page = pageText(new TextDecoder().decode(usable), budgetTokens, deps.counter, complete);
  const servedEnd = read.startByte + utf8Length(page.text);

  const startLine = cursor ? cursor.line : selector === "lines" ? read.startLine : read.startLineKnown ? read.startLine : 0;
  const atLineStart = cursor ? cursor.atLineStart : selector === "lines" || (read.startLineKnown && read.startByte === 0);
  const newlines = page.text.split("\n").length - 1;
  const endsLine = page.text.endsWith("\n") || servedEnd === Number(record.sizeBytes);
  const response: RecoverResponseInit = {
    parts: [{ content: { case: "text", value: page.text } }],
    startByte: read.startByte,
    endByte: servedEnd,
    revision: record.revision,
    resultId: record.resultId,
    totalLines: record.lineCount,
    totalBytes: Number(record.sizeBytes),
  };
  if (startLine > 0 && atLineStart && endsLine) {
    response.startLine = startLine;
    response.endLine = startLine + newlines - (page.text.endsWith("\n") ? 1 : 0);
  }
  if (servedEnd < read.rangeEndByte) {
    const nextLine = startLine > 0 ? startLine + newlines : 0;
    response.nextCursor = encodeCursor({
      tenant,
      resultId: record.resultId,
      revision: record.revision,
      startByte: servedEnd,
      endByte: read.rangeEndByte,
      line: nextLine,
      atLineStart: page.text.endsWith("\n") || (atLineStart && page.text === ""),
    });
  }
  await markStale(response, record, tenant, deps.pathRevisions);
  return response;
}
