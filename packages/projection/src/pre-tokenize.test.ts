import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import fc from "fast-check";
import cl100k from "gpt-tokenizer/encoding/cl100k_base";
import o200k from "gpt-tokenizer/encoding/o200k_base";
import { SCANNED_SPLIT } from "./fast-count.js";
import { forEachPiece, NEEDS_PATTERN, SCANNED_PATTERNS, scanCl100k, scanO200k } from "./pre-tokenize.js";

const patternOf = (encoding: unknown): RegExp =>
  (encoding as { bytePairEncodingCoreProcessor: { tokenSplitRegex: RegExp } }).bytePairEncodingCoreProcessor.tokenSplitRegex;
const ENCODINGS = [
  { name: "o200k_base", pattern: patternOf(o200k), scan: scanO200k },
  { name: "cl100k_base", pattern: patternOf(cl100k), scan: scanCl100k },
] as const;

/** The pieces as the pattern alone splits `text`: start and end of each. */
function patternPieces(pattern: RegExp, text: string): Array<[number, number]> {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  return [...text.matchAll(global)].map((match): [number, number] => [match.index, match.index + match[0].length]);
}

function scannedPieces(pattern: RegExp, scan: (text: string, start: number) => number, text: string): Array<[number, number]> {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  const pieces: Array<[number, number]> = [];
  forEachPiece(text, global, scan, (start, end) => {
    pieces.push([start, end]);
    return false;
  });
  return pieces;
}

// Every ASCII class the scanners tell apart, the contractions' letters in both cases, and characters
// outside ASCII next to them (letters, marks, digits, spaces and symbols of other scripts, a lone surrogate).
const edgy = fc
  .array(
    fc.oneof(
      fc.constantFrom(..."aZs'SdDmMtTlLvVeErR09 \t\v\f\r\n/.-_(){}#*\"`~\\|".split("")),
      fc.constantFrom("é", "É", "ß", "ǅ", "ʰ", "中", "\u0301", "²", "٣", "\u00a0", "\u2003", "\u3000", "\u2028", "—", "€", "😀", "\ud800"),
      fc.constantFrom("'ll", "'LL", "'ve", "'Re", "don't", "HTTPServer", "ABC's", "  \n  ", "\r\n\r\n", "123456", " //", "\n/"),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

describe("the hand scanners of the pre-tokenizing split", () => {
  it("mirror the patterns of the tokenizer library in use (else the counters run the pattern alone)", () => {
    assert.deepEqual(SCANNED_SPLIT, { o200k_base: true, cl100k_base: true });
    for (const { pattern, scan } of ENCODINGS) assert.equal(SCANNED_PATTERNS.get(pattern.source), scan);
  });

  for (const { name, pattern, scan } of ENCODINGS) {
    it(`${name}: split text piece by piece as the pattern does, at every ASCII edge and beside other scripts`, () => {
      fc.assert(
        fc.property(edgy, (text) => {
          assert.deepEqual(scannedPieces(pattern, scan, text), patternPieces(pattern, text));
        }),
        { numRuns: 3000 },
      );
    });

    it(`${name}: split any string as the pattern does`, () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: "grapheme", maxLength: 30 }), fc.string({ unit: "binary", maxLength: 30 })),
          (text) => {
            assert.deepEqual(scannedPieces(pattern, scan, text), patternPieces(pattern, text));
          },
        ),
        { numRuns: 1000 },
      );
    });

    it(`${name}: split real program output as the pattern does`, () => {
      const output = execFileSync(
        "bash",
        [
          "-c",
          "ls -laR /usr/share/doc 2>/dev/null | head -c 150000; find /usr/lib 2>/dev/null | head -c 50000; head -c 50000 /usr/share/common-licenses/GPL-3",
        ],
        {
          encoding: "utf8",
          maxBuffer: 1 << 24,
        },
      );
      assert.ok(output.length > 100_000);
      assert.deepEqual(scannedPieces(pattern, scan, output), patternPieces(pattern, output));
    });

    it(`${name}: answer NEEDS_PATTERN where a character outside ASCII decides, and a piece's end elsewhere`, () => {
      assert.equal(scan("é", 0), NEEDS_PATTERN);
      // A run of small letters that another script's letter may continue.
      assert.equal(scan("abcé", 0), NEEDS_PATTERN);
      // Digits that another script's digit may continue; a run of blanks that a no-break space may continue.
      assert.equal(scan("1٣", 0), NEEDS_PATTERN);
      assert.equal(scan(" \u00a0x", 0), NEEDS_PATTERN);
      assert.equal(scan("abc def", 0), 3);
      assert.equal(scan("abc def", 3), 7);
    });
  }

  it("o200k_base: capitals before small letters are one piece, a contraction ends the word, slashes follow symbols", () => {
    const pieces = (text: string): string[] => scannedPieces(patternOf(o200k), scanO200k, text).map(([start, end]) => text.slice(start, end));
    assert.deepEqual(pieces("HTTPServer don't ABC's"), ["HTTPServer", " don't", " ABC's"]);
    assert.deepEqual(pieces("a ==\n/b   c\n\n  "), ["a", " ==\n/", "b", "  ", " c", "\n\n", "  "]);
  });

  it("cl100k_base: a contraction is a piece of its own, and blanks to the end of the text are one piece", () => {
    const pieces = (text: string): string[] => scannedPieces(patternOf(cl100k), scanCl100k, text).map(([start, end]) => text.slice(start, end));
    assert.deepEqual(pieces("don't 'll"), ["don", "'t", " '", "ll"]);
    assert.deepEqual(pieces("a \n \n "), ["a", " \n \n "]);
  });
});
