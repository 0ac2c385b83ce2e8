import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createTokenCounter } from "../token-counter.js";
import { segmentEnd, segmentText } from "./token-segments.js";

/** The segments of `text`, walked as the caching counter walks them. */
function tokenSegments(text: string): string[] {
  const segments: string[] = [];
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = segmentEnd(text, start);
    segments.push(segmentText(text, start, end));
  }
  return segments;
}

const counters = [createTokenCounter("o200k_base"), createTokenCounter("cl100k_base")];
const pieces = [
  "",
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "/",
  "//x",
  " /",
  "a",
  "Ab",
  "'s",
  "'S",
  "12345",
  "x;",
  "};",
  "  return x;",
  "\u00a0",
  "\u2028",
  "\u3000",
  "é",
  "\u{1F600}",
  "\uFFFD",
  "\ud800",
  "<|endoftext|>",
  "--",
  "...",
  "# ",
  "\v",
  "\f",
  "\u0085",
];
const line = fc.array(fc.constantFrom(...pieces), { maxLength: 6 }).map((parts) => parts.join(""));

describe("segmentEnd()", () => {
  it("splits text into segments that join back to it and whose counts add up to its count, in both encodings", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), (lines, finalNewline) => {
        const text = lines.join("\n") + (finalNewline ? "\n" : "");
        const segments = tokenSegments(text);
        assert.equal(segments.join(""), text);
        for (const counter of counters)
          assert.equal(
            segments.reduce((sum, segment) => sum + counter.count(segment), 0),
            counter.count(text),
            JSON.stringify(text),
          );
      }),
      { numRuns: 3000 },
    );
  });

  it("counts a real source file exactly, split into many segments", () => {
    const text = readFileSync(new URL("./project-file-read.ts", import.meta.url), "utf8") + readFileSync(new URL("../split-lines.ts", import.meta.url), "utf8");
    const segments = tokenSegments(text);
    assert.ok(segments.length > 20);
    for (const counter of counters)
      assert.equal(
        segments.reduce((sum, segment) => sum + counter.count(segment), 0),
        counter.count(text),
      );
  });

  it("gives no segment for empty text", () => {
    assert.deepEqual(tokenSegments(""), []);
  });
});
