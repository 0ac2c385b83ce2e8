/**
 * A sparse line index stored beside each blob, so a read of lines a..b fetches
 * only nearby bytes. A checkpoint `[line, byte]` says that 1-based `line`
 * starts at `byte`. Checkpoints are placed at line starts, at least every
 * `everyLines` lines and whenever `everyBytes` bytes have passed since the
 * previous one, so every line start lies less than `everyBytes` after its
 * checkpoint. Lines end after "\n" (see splitLines in @loupe/projection).
 */
export interface LineIndex {
  version: 1;
  sizeBytes: number;
  lineCount: number;
  checkpoints: Array<[line: number, byte: number]>;
}

/** Defaults that keep a block near 64 KiB and the index near 1/4000 of a typical log. */
export const DEFAULT_EVERY_LINES = 1024;
export const DEFAULT_EVERY_BYTES = 64 * 1024;

const NEWLINE = 0x0a;

/** Builds a LineIndex from chunks as they stream by. */
export interface LineIndexBuilder {
  update(chunk: Uint8Array): void;
  finish(): LineIndex;
}

/** Creates a builder; options are for tests that want small blocks. */
export function createLineIndexBuilder(options: { everyLines?: number; everyBytes?: number } = {}): LineIndexBuilder {
  const everyLines = options.everyLines ?? DEFAULT_EVERY_LINES;
  const everyBytes = options.everyBytes ?? DEFAULT_EVERY_BYTES;
  const checkpoints: Array<[number, number]> = [[1, 0]];
  let size = 0;
  let newlines = 0;
  let lastByte = -1;
  return {
    update(chunk) {
      let from = 0;
      for (let index = chunk.indexOf(NEWLINE, from); index !== -1; index = chunk.indexOf(NEWLINE, from)) {
        newlines++;
        const lineStart = size + index + 1;
        const [lastLine, lastStart] = checkpoints[checkpoints.length - 1] ?? [1, 0];
        if (newlines + 1 - lastLine >= everyLines || lineStart - lastStart >= everyBytes) checkpoints.push([newlines + 1, lineStart]);
        from = index + 1;
      }
      if (chunk.byteLength > 0) lastByte = chunk[chunk.byteLength - 1] ?? -1;
      size += chunk.byteLength;
    },
    finish() {
      const lineCount = size === 0 ? 0 : lastByte === NEWLINE ? newlines : newlines + 1;
      // A checkpoint past the last line (after a final "\n") names no line: drop it.
      const kept = checkpoints.filter(([line, byte]) => line <= Math.max(lineCount, 1) && (byte < size || byte === 0));
      return { version: 1, sizeBytes: size, lineCount, checkpoints: kept };
    },
  };
}

/** The line index of a content in hand (an inline result's), as its Put built it. */
export function lineIndexOf(content: Uint8Array): LineIndex {
  const builder = createLineIndexBuilder();
  builder.update(content);
  return builder.finish();
}

/** The block that holds the start of `line`: its checkpoint and the byte where the next block starts. */
export interface Block {
  line: number;
  startByte: number;
  endByte: number;
}

function blockAt(index: LineIndex, position: number): Block {
  const checkpoint = index.checkpoints[position] ?? [1, 0];
  const next = index.checkpoints[position + 1];
  return { line: checkpoint[0], startByte: checkpoint[1], endByte: next ? next[1] : index.sizeBytes };
}

/** The block holding the start of 1-based `line` (binary search over checkpoints). */
export function blockForLine(index: LineIndex, line: number): Block {
  let low = 0;
  let high = index.checkpoints.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((index.checkpoints[middle]?.[0] ?? 0) <= line) low = middle;
    else high = middle - 1;
  }
  return blockAt(index, low);
}

/** The block holding byte offset `byte`. */
export function blockForByte(index: LineIndex, byte: number): Block {
  let low = 0;
  let high = index.checkpoints.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((index.checkpoints[middle]?.[1] ?? 0) <= byte) low = middle;
    else high = middle - 1;
  }
  return blockAt(index, low);
}

/** Offset in `bytes` just after the `count`-th newline, or -1 when there are fewer. */
export function offsetAfterNewlines(bytes: Uint8Array, count: number): number {
  let from = 0;
  for (let seen = 0; seen < count; seen++) {
    const index = bytes.indexOf(NEWLINE, from);
    if (index === -1) return -1;
    from = index + 1;
  }
  return from;
}

/** Number of "\n" bytes in `bytes`. */
export function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) count++;
  return count;
}

/** A line index as stored (JSON), the inverse of {@link parseLineIndex}. */
export function encodeLineIndex(index: LineIndex): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(index));
}

/** Parses a stored index; throws a TypeError when it is not one. */
export function parseLineIndex(bytes: Uint8Array): LineIndex {
  const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<LineIndex>;
  if (value.version !== 1 || !Array.isArray(value.checkpoints) || typeof value.sizeBytes !== "number" || typeof value.lineCount !== "number") {
    throw new TypeError("not a line index");
  }
  return value as LineIndex;
}
