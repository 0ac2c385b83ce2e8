import type { ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import { blockForLine, offsetAfterNewlines, type LineIndex } from "./line-index.js";

/** One saved blob with its line index, read by ranges. */
export interface Blob {
  store: ArchiveStore;
  key: string;
  index: LineIndex;
  signal: AbortSignal | undefined;
}

/** Bytes [start, end) of the blob (empty when end ≤ start). */
export function readBlob(blob: Blob, start: number, end: number): Promise<Uint8Array> {
  if (end <= start) return Promise.resolve(new Uint8Array());
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
