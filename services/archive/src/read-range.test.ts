import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import fc from "fast-check";
import { blobKey, createFileArchiveStore, type ArchiveStore } from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { ReadRequestSchema } from "@loupe/proto";
import { lineIndexOf, type LineIndex } from "./line-index.js";
import { readRange } from "./read-range.js";

const SHA = "a".repeat(64);
const encoder = new TextEncoder();

function sampleText(): string {
  const lines: string[] = [];
  for (let index = 1; index <= 40_000; index++) {
    const width = (index * 7919) % 97;
    lines.push(`${String(index)} ${"é".repeat(index % 3)}${"x".repeat(width)}${index % 1000 === 0 ? "🙂".repeat(200) : ""}\n`);
  }
  return lines.join("") + "last line without newline";
}

describe("readRange()", () => {
  let directory: string;
  let store: ArchiveStore;
  let bytes: Uint8Array;
  let lines: string[];
  let index: LineIndex;

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-read-range-"));
    store = createFileArchiveStore({ directory });
    const text = sampleText();
    bytes = encoder.encode(text);
    lines = text.split(/(?<=\n)/);
    index = lineIndexOf(bytes);
    await store.put(blobKey("local", SHA), bytes);
  });
  after(() => rm(directory, { recursive: true, force: true }));

  const read = (fields: Parameters<typeof create<typeof ReadRequestSchema>>[1]) => readRange(store, "local", SHA, index, create(ReadRequestSchema, fields));

  it("serves exactly the requested lines", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: lines.length }), fc.integer({ min: 0, max: 300 }), async (start, span) => {
        const end = Math.min(lines.length, start + span);
        const served = await read({ resultId: "r", startLine: start, endLine: end });
        assert.equal(new TextDecoder().decode(served.data), lines.slice(start - 1, end).join(""));
        assert.equal(served.startLine, start);
        assert.equal(served.endLine, end);
        assert.equal(served.endByte, served.rangeEndByte);
      }),
      { numRuns: 60 },
    );
  });

  it("stops at max_bytes and reports the complete lines served", async () => {
    const served = await read({ resultId: "r", startLine: 100, endLine: 5000, maxBytes: 1000 });
    assert.ok(served.data.byteLength <= 1000);
    assert.ok(served.endByte < served.rangeEndByte);
    const complete = new TextDecoder().decode(served.data).split("\n").length - 2;
    assert.equal(served.endLine, 100 + complete);
  });

  it("serves byte ranges snapped back to character starts, pages joining to the original", async () => {
    const start = 12_345;
    const end = 400_000;
    let position = start;
    const pieces: Uint8Array[] = [];
    while (position < end) {
      const served = await read({ resultId: "r", startByte: position, endByte: end, maxBytes: 7777 });
      assert.ok(served.endByte > position, "advances");
      pieces.push(served.data);
      position = served.endByte;
    }
    const joined = Buffer.concat(pieces);
    const first = await read({ resultId: "r", startByte: start, endByte: start + 1 });
    assert.equal(joined.toString("utf8"), Buffer.from(bytes.subarray(first.startByte, position)).toString("utf8"));
    assert.doesNotThrow(() => new TextDecoder("utf-8", { fatal: true }).decode(joined));
  });

  it("finds the line a byte read starts in when asked", async () => {
    const lineStart = Buffer.byteLength(lines.slice(0, 2999).join(""));
    const served = await read({ resultId: "r", startByte: lineStart + 2, endByte: lineStart + 50, withStartLine: true });
    assert.equal(served.startLineKnown, true);
    assert.equal(served.startLine, 3000);
    assert.equal((await read({ resultId: "r", startByte: lineStart })).startLineKnown, false, "not computed unless asked");
  });

  it("reads lines near the end of a large blob without fetching it whole", async () => {
    const before = store.stats.bytesReceived;
    await read({ resultId: "r", startLine: lines.length - 20, endLine: lines.length });
    assert.ok(store.stats.bytesReceived - before < 200 * 1024, `received ${String(store.stats.bytesReceived - before)} bytes of ${String(bytes.byteLength)}`);
  });

  it("refuses bad ranges with invalid_argument", async () => {
    for (const fields of [
      { startLine: 0 },
      { startLine: 5, endLine: 4 },
      { startLine: lines.length + 1 },
      { startByte: bytes.byteLength + 1 },
      { startByte: 9, endByte: 3 },
      { startLine: 1, startByte: 0 },
    ]) {
      await assert.rejects(
        read({ resultId: "r", ...fields }),
        (error: unknown) => isAppError(error) && error.code === "invalid_argument",
        JSON.stringify(fields),
      );
    }
  });
});
