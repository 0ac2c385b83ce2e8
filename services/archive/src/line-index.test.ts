import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { blockForByte, blockForLine, countNewlines, createLineIndexBuilder, offsetAfterNewlines } from "./line-index.js";

function lineStarts(bytes: Uint8Array): number[] {
  const starts = bytes.byteLength > 0 ? [0] : [];
  bytes.forEach((byte, index) => {
    if (byte === 0x0a && index + 1 < bytes.byteLength) starts.push(index + 1);
  });
  return starts;
}

function build(bytes: Uint8Array, cuts: number[], options: { everyLines: number; everyBytes: number }) {
  const builder = createLineIndexBuilder(options);
  let from = 0;
  for (const cut of [...cuts.filter((value) => value < bytes.byteLength).sort((a, b) => a - b), bytes.byteLength]) {
    builder.update(bytes.subarray(from, cut));
    from = cut;
  }
  return builder.finish();
}

describe("line index", () => {
  it("agrees with a naive scan for any text and any chunking", () => {
    const text = fc.array(fc.constantFrom("a", "bb\n", "\n", "\r\n", "long line ".repeat(20) + "\n", "é"), { maxLength: 300 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(4000)), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 4, max: 300 }), (pieces, cuts, everyLines, everyBytes) => {
        const bytes = new TextEncoder().encode(pieces.join(""));
        const index = build(bytes, cuts, { everyLines, everyBytes });
        const starts = lineStarts(bytes);
        assert.equal(index.lineCount, starts.length);
        assert.equal(index.sizeBytes, bytes.byteLength);
        for (const [line, byte] of index.checkpoints) if (bytes.byteLength > 0) assert.equal(starts[line - 1], byte);
        for (let line = 1; line <= starts.length; line++) {
          const block = blockForLine(index, line);
          const start = starts[line - 1] ?? 0;
          assert.ok(block.line <= line && block.startByte <= start && start <= block.endByte);
          assert.ok(start - block.startByte < everyBytes || block.line === line, "a line start lies within everyBytes of its checkpoint");
          const offset = offsetAfterNewlines(bytes.subarray(block.startByte), line - block.line);
          assert.equal(block.startByte + offset, start);
          assert.ok(blockForByte(index, start).startByte <= start);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("counts newlines and the unterminated last line", () => {
    const index = build(new TextEncoder().encode("a\nb\nc"), [], { everyLines: 1, everyBytes: 100 });
    assert.equal(index.lineCount, 3);
    assert.deepEqual(index.checkpoints, [
      [1, 0],
      [2, 2],
      [3, 4],
    ]);
    assert.equal(countNewlines(new TextEncoder().encode("a\nb\n")), 2);
    assert.equal(build(new Uint8Array(), [], { everyLines: 1, everyBytes: 1 }).lineCount, 0);
  });
});
