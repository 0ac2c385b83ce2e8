import { blobKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { ReadRequest } from "@loupe/proto";
import { blockForByte, countNewlines, offsetAfterNewlines, type LineIndex } from "./line-index.js";
import { lineStart, readBlob, type Blob } from "./blob-reader.js";

/** The largest answer one Read gives when the caller sets no max_bytes (8 MiB). */
export const DEFAULT_MAX_READ_BYTES = 8 * 1024 * 1024;
// A byte read reports its start line when its block is at most this far back.
const LINE_LOOKBACK_BYTES = 256 * 1024;
// The longest UTF-8 character: windows reach this far past their ends so boundaries can be snapped locally.
const MAX_CHAR_BYTES = 4;

/** A served range of a blob. */
export interface ServedRange {
  data: Uint8Array;
  startLine: number;
  endLine: number;
  startByte: number;
  endByte: number;
  rangeEndByte: number;
  startLineKnown: boolean;
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** Moves a position in `window` back to the start of the character it falls in. */
function snapBack(window: Uint8Array, position: number): number {
  let snapped = Math.min(position, window.byteLength);
  while (snapped > 0 && snapped < window.byteLength && isContinuation(window[snapped])) snapped--;
  return snapped;
}

async function readLines(blob: Blob, request: ReadRequest, maxBytes: number): Promise<ServedRange> {
  const { lineCount, sizeBytes } = blob.index;
  const first = request.startLine ?? 1;
  const last = Math.min(request.endLine ?? lineCount, lineCount);
  if (first < 1) throw new AppError("invalid_argument", `start_line must be at least 1 [start_line=${String(first)}]`);
  if (request.endLine !== undefined && request.endLine < first)
    throw new AppError("invalid_argument", `end_line before start_line [start_line=${String(first)}, end_line=${String(request.endLine)}]`);
  if (first > lineCount) throw new AppError("invalid_argument", `start_line beyond the last line [start_line=${String(first)}, lines=${String(lineCount)}]`);
  const startByte = await lineStart(blob, first);
  const window = await readBlob(blob, startByte, Math.min(sizeBytes, startByte + maxBytes));
  const wanted = last - first + 1;
  const offset = offsetAfterNewlines(window, wanted);
  // The range's end is inside the window (or at the end of the blob): no second look-up needed.
  const reachesEnd = offset !== -1 || startByte + window.byteLength === sizeBytes;
  const rangeEndByte = offset !== -1 ? startByte + offset : reachesEnd ? sizeBytes : await lineStart(blob, last + 1);
  const data = window.subarray(0, Math.min(window.byteLength, rangeEndByte - startByte));
  const endByte = startByte + data.byteLength;
  const endLine = endByte === rangeEndByte ? last : first + countNewlines(data) - 1;
  return { data, startLine: first, endLine, startByte, endByte, rangeEndByte, startLineKnown: true };
}

async function startLineOf(blob: Blob, byte: number): Promise<number | undefined> {
  const block = blockForByte(blob.index, byte);
  if (byte - block.startByte > LINE_LOOKBACK_BYTES) return undefined;
  return block.line + countNewlines(await readBlob(blob, block.startByte, byte));
}

async function readBytes(blob: Blob, request: ReadRequest, maxBytes: number): Promise<ServedRange> {
  const size = blob.index.sizeBytes;
  const requestedStart = request.startByte ?? 0;
  const requestedEnd = Math.min(request.endByte ?? size, size);
  if (requestedStart > size) throw new AppError("invalid_argument", `start_byte beyond the end [start_byte=${String(requestedStart)}, size=${String(size)}]`);
  if (request.endByte !== undefined && request.endByte < requestedStart)
    throw new AppError("invalid_argument", `end_byte before start_byte [start_byte=${String(requestedStart)}, end_byte=${String(request.endByte)}]`);
  // One read covers the answer plus a few bytes either side, so both ends snap to character starts locally.
  const windowStart = Math.max(0, requestedStart - (MAX_CHAR_BYTES - 1));
  const windowEnd = Math.min(size, Math.min(requestedEnd, requestedStart + maxBytes) + MAX_CHAR_BYTES);
  const window = await readBlob(blob, windowStart, windowEnd);
  const startByte = windowStart + snapBack(window, requestedStart - windowStart);
  const endIsInWindow = requestedEnd <= windowEnd;
  const rangeEndByte = endIsInWindow && requestedEnd < size ? windowStart + snapBack(window, requestedEnd - windowStart) : requestedEnd;
  let endByte = Math.min(rangeEndByte, windowStart + snapBack(window, Math.min(requestedEnd, requestedStart + maxBytes) - windowStart));
  // Never answer with nothing while the range has bytes: serve at least one whole character.
  if (endByte <= startByte && rangeEndByte > startByte) {
    let next = startByte - windowStart + 1;
    while (next < window.byteLength && isContinuation(window[next])) next++;
    endByte = windowStart + next;
  }
  const data = window.subarray(startByte - windowStart, endByte - windowStart);
  const startLine = request.withStartLine ? await startLineOf(blob, startByte) : undefined;
  const endLine = startLine === undefined ? 0 : startLine + countNewlines(data.subarray(0, Math.max(0, data.byteLength - 1)));
  return {
    data,
    startLine: startLine ?? 0,
    endLine,
    startByte,
    endByte,
    rangeEndByte: Math.max(rangeEndByte, endByte),
    startLineKnown: startLine !== undefined,
  };
}

/**
 * Serves a line range (1-based, inclusive) or byte range (0-based, end
 * exclusive, snapped back to character starts) of a blob, at most `maxBytes`
 * long, fetching only the bytes it needs with ranged reads: a line read costs
 * one block read and one window read; a byte read one window read. With
 * `content` (an inline result's bytes) nothing is fetched.
 * @throws AppError `invalid_argument` for a malformed range
 */
export async function readRange(
  store: ArchiveStore,
  tenant: string,
  sha: string,
  index: LineIndex,
  request: ReadRequest,
  signal?: AbortSignal,
  content?: Uint8Array,
): Promise<ServedRange> {
  const blob: Blob = { store, key: blobKey(tenant, sha), index, signal, bytes: content };
  const maxBytes = Math.min(request.maxBytes === 0 ? DEFAULT_MAX_READ_BYTES : request.maxBytes, DEFAULT_MAX_READ_BYTES);
  const byLines = request.startLine !== undefined || request.endLine !== undefined;
  const byBytes = request.startByte !== undefined || request.endByte !== undefined;
  if (byLines && byBytes) throw new AppError("invalid_argument", "give a line range or a byte range, not both");
  return byBytes ? await readBytes(blob, request, maxBytes) : await readLines(blob, request, maxBytes);
}
