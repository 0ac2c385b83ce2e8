import { blobKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { ReadRequest } from "@loupe/proto";
import { blockForByte, blockForLine, countNewlines, offsetAfterNewlines, type LineIndex } from "./line-index.js";

/** The largest answer one Read gives when the caller sets no max_bytes (8 MiB). */
export const DEFAULT_MAX_READ_BYTES = 8 * 1024 * 1024;
// A byte read reports its start line when its block is at most this far back.
const LINE_LOOKBACK_BYTES = 256 * 1024;

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

interface Blob {
  store: ArchiveStore;
  key: string;
  index: LineIndex;
  signal: AbortSignal | undefined;
}

function get(blob: Blob, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return Promise.resolve(new Uint8Array());
  return blob.store.get(blob.key, { range: { start, end }, ...(blob.signal ? { signal: blob.signal } : {}) });
}

/** Byte offset where 1-based `line` starts (`lineCount + 1` → size), reading only its block. */
async function lineStart(blob: Blob, line: number): Promise<number> {
  if (line > blob.index.lineCount) return blob.index.sizeBytes;
  const block = blockForLine(blob.index, line);
  if (block.line === line) return block.startByte;
  const bytes = await get(blob, block.startByte, block.endByte);
  const offset = offsetAfterNewlines(bytes, line - block.line);
  if (offset === -1) throw new AppError("internal", `line index does not match blob [key=${blob.key}, line=${String(line)}]`);
  return block.startByte + offset;
}

const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** Moves `offset` back to the start of the UTF-8 character it falls in. */
async function snapBack(blob: Blob, offset: number): Promise<number> {
  if (offset <= 0 || offset >= blob.index.sizeBytes) return offset;
  const around = await get(blob, Math.max(0, offset - 3), offset + 1);
  let position = around.byteLength - 1;
  while (position > 0 && isContinuation(around[position])) position--;
  return offset - (around.byteLength - 1 - position);
}

/** The offset just after the character that starts at `offset`. */
async function nextBoundary(blob: Blob, offset: number): Promise<number> {
  const bytes = await get(blob, offset, Math.min(blob.index.sizeBytes, offset + 4));
  let position = 1;
  while (position < bytes.byteLength && isContinuation(bytes[position])) position++;
  return offset + position;
}

async function readLines(blob: Blob, request: ReadRequest, maxBytes: number): Promise<ServedRange> {
  const { lineCount } = blob.index;
  const first = request.startLine ?? 1;
  const last = Math.min(request.endLine ?? lineCount, lineCount);
  if (first < 1) throw new AppError("invalid_argument", `start_line must be at least 1 [start_line=${String(first)}]`);
  if (request.endLine !== undefined && request.endLine < first) throw new AppError("invalid_argument", `end_line before start_line [start_line=${String(first)}, end_line=${String(request.endLine)}]`);
  if (first > lineCount) throw new AppError("invalid_argument", `start_line beyond the last line [start_line=${String(first)}, lines=${String(lineCount)}]`);
  const startByte = await lineStart(blob, first);
  const rangeEndByte = await lineStart(blob, last + 1);
  const endByte = Math.min(rangeEndByte, startByte + maxBytes);
  const data = await get(blob, startByte, endByte);
  const endLine = endByte === rangeEndByte ? last : first + countNewlines(data) - 1;
  return { data, startLine: first, endLine, startByte, endByte, rangeEndByte, startLineKnown: true };
}

async function readBytes(blob: Blob, request: ReadRequest, maxBytes: number): Promise<ServedRange> {
  const size = blob.index.sizeBytes;
  const requestedStart = request.startByte ?? 0;
  const requestedEnd = Math.min(request.endByte ?? size, size);
  if (requestedStart > size) throw new AppError("invalid_argument", `start_byte beyond the end [start_byte=${String(requestedStart)}, size=${String(size)}]`);
  if (request.endByte !== undefined && request.endByte < requestedStart) throw new AppError("invalid_argument", `end_byte before start_byte [start_byte=${String(requestedStart)}, end_byte=${String(request.endByte)}]`);
  const startByte = await snapBack(blob, requestedStart);
  const rangeEndByte = await snapBack(blob, requestedEnd);
  let endByte = await snapBack(blob, Math.min(rangeEndByte, startByte + maxBytes));
  // Never answer with nothing while the range has bytes: serve at least one whole character.
  if (endByte <= startByte && rangeEndByte > startByte) endByte = await nextBoundary(blob, startByte);
  const data = await get(blob, startByte, endByte);
  const block = blockForByte(blob.index, startByte);
  const known = startByte - block.startByte <= LINE_LOOKBACK_BYTES;
  const startLine = known ? block.line + countNewlines(await get(blob, block.startByte, startByte)) : 0;
  const endLine = known ? startLine + countNewlines(data.subarray(0, Math.max(0, data.byteLength - 1))) : 0;
  return { data, startLine, endLine, startByte, endByte, rangeEndByte: Math.max(rangeEndByte, endByte), startLineKnown: known };
}

/**
 * Serves a line range (1-based, inclusive) or byte range (0-based, end
 * exclusive, snapped back to character starts) of a blob, at most `maxBytes`
 * long, fetching only the bytes it needs with ranged reads.
 * @throws AppError `invalid_argument` for a malformed range
 */
export async function readRange(store: ArchiveStore, tenant: string, sha: string, index: LineIndex, request: ReadRequest, signal?: AbortSignal): Promise<ServedRange> {
  const blob: Blob = { store, key: blobKey(tenant, sha), index, signal };
  const maxBytes = Math.min(request.maxBytes === 0 ? DEFAULT_MAX_READ_BYTES : request.maxBytes, DEFAULT_MAX_READ_BYTES);
  const byLines = request.startLine !== undefined || request.endLine !== undefined;
  const byBytes = request.startByte !== undefined || request.endByte !== undefined;
  if (byLines && byBytes) throw new AppError("invalid_argument", "give a line range or a byte range, not both");
  return byBytes ? await readBytes(blob, request, maxBytes) : await readLines(blob, request, maxBytes);
}
