import type { ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import { blockForLine, offsetAfterNewlines, type LineIndex } from "./line-index.js";

/** One saved content with its line index, read by ranges: a blob in the store, or an inline result's bytes in hand. */
export interface Blob {
  store: ArchiveStore;
  key: string;
  index: LineIndex;
  signal: AbortSignal | undefined;
  /** The whole content, when its record carried it (an inline result): ranges are cut from it, nothing is fetched. */
  bytes?: Uint8Array | undefined;
}

/** Bytes [start, end) of the blob (empty when end ≤ start). */
export function readBlob(blob: Blob, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return Promise.resolve(new Uint8Array());
  if (blob.bytes !== undefined) return Promise.resolve(blob.bytes.subarray(start, end));
  return blob.store.get(blob.key, { range: { start, end }, ...(blob.signal ? { signal: blob.signal } : {}) });
}

/**
 * Byte offset where 1-based `line` starts (`lineCount + 1` → the size),
 * reading only the block of the line index that holds it.
 * @throws AppError `internal` when the index does not match the blob
 */
export async function lineStart(blob: Blob, line: number): Promise<number> {
  if (line > blob.index.lineCount) return blob.index.sizeBytes;
  const block = blockForLine(blob.index, line);
  if (block.line === line) return block.startByte;
  const offset = offsetAfterNewlines(await readBlob(blob, block.startByte, block.endByte), line - block.line);
  if (offset === -1) throw new AppError("internal", `line index does not match blob [key=${blob.key}, line=${String(line)}]`);
  return block.startByte + offset;
}
