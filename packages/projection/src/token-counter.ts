import { PIECE_COUNTERS } from "./fast-count.js";

/** Tokenizer encodings Loupe counts with. */
export type TokenEncoding = "o200k_base" | "cl100k_base";

/** Counts tokens of text exactly with one encoding. */
export interface TokenCounter {
  readonly encoding: TokenEncoding;
  /** Exact token count. Cost is linear in the text: call it on what decides a view, not on whole inputs. */
  count(text: string): number;
  /** The count when it is at most `limit`, else false; stops early past the limit. */
  within(text: string, limit: number): number | false;
}

// Tool output may contain text such as "<|endoftext|>": it is data, never a control token (see fast-count.ts).
// No token of o200k_base or cl100k_base spans more characters than this, so a text longer than
// (limit + 1) × this is over the limit without counting (BPE is slow on long runs of one character).
const MAX_TOKEN_CHARS = 256;

/** Creates a counter for `encoding` (default o200k_base, the encoding of current OpenAI models). */
export function createTokenCounter(encoding: TokenEncoding = "o200k_base"): TokenCounter {
  const pieces = PIECE_COUNTERS[encoding];
  return {
    encoding,
    count: (text) => pieces.count(text),
    within: (text, limit) => (text.length > (limit + 1) * MAX_TOKEN_CHARS ? false : pieces.within(text, limit)),
  };
}
