import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import fc from "fast-check";
import { FAST_COUNTING, LIBRARY_COUNTERS, PIECE_COUNTERS } from "./fast-count.js";

const ENCODINGS = ["o200k_base", "cl100k_base"] as const;

// Text shaped like tool output: code, paths, numbers, blank runs, unicode, and control-token look-alikes.
const fragment = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    "\n",
    "\r\n",
    "\n\n\n",
    "   ",
    "\t",
    "/usr/lib/x86_64-linux-gnu/",
    "error TS2322:",
    "<|endoftext|>",
    "<|im_start|>",
    "don't",
    "I'LL",
    "1234567",
    "    def resolve_lookup(self, value):",
    "日本語のテキスト",
    "😀👍🏽",
    "a".repeat(300),
  ),
);
const toolText = fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join(""));

describe("the fast piece counters", () => {
  it("are in use for both encodings (the tokenizer library's encoder has the shape they read)", () => {
    assert.deepEqual(FAST_COUNTING, { o200k_base: true, cl100k_base: true });
  });

  for (const encoding of ENCODINGS) {
    const fast = PIECE_COUNTERS[encoding];
    const library = LIBRARY_COUNTERS[encoding];

    it(`${encoding}: count as the library counts, on text shaped like tool output`, () => {
      fc.assert(
        fc.property(toolText, (text) => fast.count(text) === library.count(text)),
        { numRuns: 600 },
      );
    });

    it(`${encoding}: count as the library counts on short ASCII runs (control characters, NUL and DEL among them)`, () => {
      const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code)), maxLength: 24 });
      fc.assert(
        fc.property(ascii, (text) => fast.count(text) === library.count(text)),
        { numRuns: 2000 },
      );
    });

    it(`${encoding}: within answers the count when it is within the limit, else false — as the library`, () => {
      fc.assert(
        fc.property(toolText, fc.nat({ max: 200 }), (text, limit) => fast.within(text, limit) === library.within(text, limit)),
        { numRuns: 400 },
      );
    });

    it(`${encoding}: count as the library counts on real program output, whole and line by line`, () => {
      const output = execFileSync("bash", ["-c", "ls -laR /usr/share/doc 2>/dev/null | head -c 200000; find /usr/lib 2>/dev/null | head -c 100000"], {
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024,
      });
      assert.ok(output.length > 100_000);
      assert.equal(fast.count(output), library.count(output));
      for (const line of output.split(/(?<=\n)/).slice(0, 3000)) assert.equal(fast.count(line), library.count(line), JSON.stringify(line));
    });
  }

  it("reads a control token's text as plain text", () => {
    for (const encoding of ENCODINGS) {
      assert.ok(PIECE_COUNTERS[encoding].count("<|endoftext|>") > 1);
      assert.equal(PIECE_COUNTERS[encoding].count("<|endoftext|>"), LIBRARY_COUNTERS[encoding].count("<|endoftext|>"));
    }
  });
});
