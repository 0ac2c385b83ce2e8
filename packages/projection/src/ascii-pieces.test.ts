import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import o200k from "gpt-tokenizer/encoding/o200k_base";
import { ASCII_PIECE_MAX_CHARS, asciiPieces, IN_VOCABULARY, NOT_IN_VOCABULARY, UNKNOWN } from "./ascii-pieces.js";

describe("asciiPieces()", () => {
  const vocabulary = ["a", "ab", "\0", "\0\0", "abcd", "abcde", "abcdefgh", "abcdefghi", "é", " the", "\x7f"];
  const pieces = asciiPieces(vocabulary);
  const lookup = (piece: string): number => pieces.lookup(`<${piece}>`, 1, piece.length + 1);

  it("finds each short ASCII piece of the vocabulary, at any place in a text", () => {
    for (const piece of ["a", "ab", "\0", "\0\0", "abcd", "abcde", "abcdefgh", " the", "\x7f"])
      assert.equal(lookup(piece), IN_VOCABULARY, JSON.stringify(piece));
  });

  it("tells a short ASCII piece outside it apart, the length included (NUL packs as zero)", () => {
    for (const piece of ["b", "ba", "\0\0\0", "abc", "abcdef", "abcdefg", "the", "\0a"]) assert.equal(lookup(piece), NOT_IN_VOCABULARY, JSON.stringify(piece));
  });

  it("cannot tell an empty piece, one longer than eight characters or one outside ASCII", () => {
    assert.equal(ASCII_PIECE_MAX_CHARS, 8);
    for (const piece of ["", "abcdefghi", "é", "aé", "abcdé"]) assert.equal(lookup(piece), UNKNOWN, JSON.stringify(piece));
  });

  it("answers as o200k's vocabulary does for every ASCII string of up to eight characters", () => {
    const ranks = (o200k as unknown as { bytePairEncodingCoreProcessor: { bytePairStringRankEncoder: Map<string, number> } }).bytePairEncodingCoreProcessor
      .bytePairStringRankEncoder;
    const real = asciiPieces(ranks.keys());
    let inVocabulary = 0;
    for (const piece of ranks.keys())
      if (piece.length <= ASCII_PIECE_MAX_CHARS && [...piece].every((char) => char.charCodeAt(0) <= 127)) {
        assert.equal(real.lookup(piece, 0, piece.length), IN_VOCABULARY, JSON.stringify(piece));
        inVocabulary++;
      }
    assert.ok(inVocabulary > 100_000, String(inVocabulary));
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(ascii, (piece) => real.lookup(piece, 0, piece.length) === (ranks.has(piece) ? IN_VOCABULARY : NOT_IN_VOCABULARY)),
      { numRuns: 5000 },
    );
  });
});
