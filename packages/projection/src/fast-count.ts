import o200k, { countTokens as countO200k, isWithinTokenLimit as withinO200k } from "gpt-tokenizer/encoding/o200k_base";
import { asciiPieces, IN_VOCABULARY, NOT_IN_VOCABULARY, type AsciiPieces } from "./ascii-pieces.js";
import cl100k, { countTokens as countCl100k, isWithinTokenLimit as withinCl100k } from "gpt-tokenizer/encoding/cl100k_base";

/** Counting with one encoding: exact, and `within` stops past the limit. */
export interface PieceCounter {
  count(text: string): number;
  within(text: string, limit: number): number | false;
}

/** What this module reads of gpt-tokenizer's encoder (4.0.0): its pre-tokenizing pattern, vocabulary and merge. */
interface EncoderCore {
  readonly tokenSplitRegex: RegExp;
  readonly bytePairStringRankEncoder: ReadonlyMap<string, number>;
  readonly textEncoder: { encode(text: string): Uint8Array };
  bytePairMerge(bytes: Uint8Array): readonly number[];
}

// Tool output may contain text such as "<|endoftext|>": it is data, never a control token.
const ALL_TEXT = { disallowedSpecial: new Set<string>() };
// Pieces outside the vocabulary whose merge was made, with their token counts; emptied when this full.
const MAX_MERGED = 100_000;

function coreOf(encoding: unknown): EncoderCore | undefined {
  const core = (encoding as { bytePairEncodingCoreProcessor?: Partial<EncoderCore> } | undefined)?.bytePairEncodingCoreProcessor;
  if (
    core?.tokenSplitRegex instanceof RegExp &&
    core.bytePairStringRankEncoder instanceof Map &&
    typeof core.textEncoder?.encode === "function" &&
    typeof core.bytePairMerge === "function"
  )
    return core as EncoderCore;
  return undefined;
}

/**
 * Counts as gpt-tokenizer's `countTokens` (every special token's text taken as plain text) does, with
 * less work per piece: the same pre-tokenizing pattern and vocabulary, one lookup for a piece in the
 * vocabulary, and for a piece outside it the count of its merge, made once and remembered (counts
 * only: no token arrays, no reordering of a cache on each hit). Exact by construction; tested against
 * the library on real and random text.
 */
function fastCounter(core: EncoderCore): PieceCounter {
  const flags = core.tokenSplitRegex.flags.replace(/[gy]/g, "");
  // Pieces are found with `test` at the place the last one ended (sticky), which moves `lastIndex` to the
  // piece's end without building a match array — about 40% of all a Project call allocated was those
  // arrays (docs/benchmarks.md). Where no piece starts there, the global search finds the next, as the
  // library's does.
  const sticky = new RegExp(core.tokenSplitRegex.source, `${flags}y`);
  const split = new RegExp(core.tokenSplitRegex.source, `${flags}g`);
  const ranks = core.bytePairStringRankEncoder;
  // Built at the first count (2 MiB; a process that never counts, such as the archive, does not pay for it).
  let ascii: AsciiPieces | undefined;
  const merged = new Map<string, number>();
  // The count of a piece outside the vocabulary.
  const mergedCount = (text: string): number => {
    let tokens = merged.get(text);
    if (tokens === undefined) {
      tokens = core.bytePairMerge(core.textEncoder.encode(text)).length;
      if (merged.size >= MAX_MERGED) merged.clear();
      merged.set(text, tokens);
    }
    return tokens;
  };
  const within = (text: string, limit: number): number | false => {
    const pieces = (ascii ??= asciiPieces(ranks.keys()));
    let total = 0;
    // Every alternative of both encodings' patterns consumes a character: each piece ends past where it starts.
    for (let start = 0, end = 0; start < text.length; start = end) {
      sticky.lastIndex = start;
      if (sticky.test(text)) end = sticky.lastIndex;
      else {
        split.lastIndex = start;
        const match = split.exec(text);
        if (match === null) break;
        start = match.index;
        end = split.lastIndex;
      }
      // Nine pieces in ten are short ASCII pieces, looked up without a string of their own.
      const known = pieces.lookup(text, start, end);
      if (known === IN_VOCABULARY) total += 1;
      else {
        const found = text.slice(start, end);
        total += known === NOT_IN_VOCABULARY || !ranks.has(found) ? mergedCount(found) : 1;
      }
      if (total > limit) return false;
    }
    return total;
  };
  return { count: (text) => within(text, Number.POSITIVE_INFINITY) as number, within };
}

/** The library's own functions: where its encoder does not have the shape this module reads. */
function libraryCounter(count: typeof countO200k, within: typeof withinO200k): PieceCounter {
  return { count: (text) => count(text, ALL_TEXT), within: (text, limit) => within(text, limit, ALL_TEXT) };
}

function counterOf(encoding: unknown, count: typeof countO200k, within: typeof withinO200k): PieceCounter {
  const core = coreOf(encoding);
  return core === undefined ? libraryCounter(count, within) : fastCounter(core);
}

/** o200k_base and cl100k_base counting, the fast way when the library's encoder allows it. */
export const PIECE_COUNTERS = {
  o200k_base: counterOf(o200k, countO200k, withinO200k),
  cl100k_base: counterOf(cl100k, countCl100k, withinCl100k),
} as const;

/** Whether each encoding counts the fast way (false: the library's encoder changed shape; counts stay exact). */
export const FAST_COUNTING = { o200k_base: coreOf(o200k) !== undefined, cl100k_base: coreOf(cl100k) !== undefined } as const;

/** The library's own counting, as the fast counters are checked against. */
export const LIBRARY_COUNTERS = {
  o200k_base: libraryCounter(countO200k, withinO200k),
  cl100k_base: libraryCounter(countCl100k, withinCl100k),
} as const;
