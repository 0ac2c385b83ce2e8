import type { TokenCounter } from "../token-counter.js";
import { tokenSegments } from "./token-segments.js";

const CACHING = new WeakSet<TokenCounter>();

/**
 * Wraps a counter for one projection: a projector estimates its shares by
 * counting lines, the selection engine counts the same lines again (on each
 * attempt), and the view's final check counts them once more, so each line's
 * count, or the largest limit it was found to exceed, is remembered and
 * reused. A longer text (a view, a whole small result) is counted as the sum
 * of its lines, split only where the tokenizer's pre-tokenization provably
 * splits too (see `tokenSegments`), which is the exact count. Only texts
 * shorter than 4 KB are remembered. Answers exactly as `counter` would.
 * Wrapping a caching counter returns it unchanged (one cache per projection).
 */
export function createCachingCounter(counter: TokenCounter): TokenCounter {
  if (CACHING.has(counter)) return counter;
  const exact = new Map<string, number>();
  const over = new Map<string, number>();
  const countOne = (text: string): number => {
    const known = exact.get(text);
    if (known !== undefined) return known;
    const counted = counter.count(text);
    if (text.length < MAX_CACHED_LENGTH) exact.set(text, counted);
    return counted;
  };
  const withinOne = (text: string, limit: number): number | false => {
    const known = exact.get(text);
    if (known !== undefined) return known <= limit ? known : false;
    const exceeded = over.get(text);
    if (exceeded !== undefined && limit <= exceeded) return false;
    const counted = counter.within(text, limit);
    if (text.length < MAX_CACHED_LENGTH) {
      if (counted === false) over.set(text, Math.max(limit, exceeded ?? limit));
      else exact.set(text, counted);
    }
    return counted;
  };
  const caching: TokenCounter = {
    encoding: counter.encoding,
    count: (text) => {
      if (text.length < MIN_SEGMENTED_LENGTH) return countOne(text);
      let total = 0;
      for (const segment of tokenSegments(text)) total += countOne(segment);
      return total;
    },
    within: (text, limit) => {
      if (text.length < MIN_SEGMENTED_LENGTH) return withinOne(text, limit);
      // No token spans more than 256 characters (see createTokenCounter): a longer text is over without counting.
      if (text.length > (limit + 1) * MAX_TOKEN_CHARS) return false;
      let total = 0;
      for (const segment of tokenSegments(text)) {
        const counted = withinOne(segment, limit - total);
        if (counted === false) return false;
        total += counted;
      }
      return total;
    },
  };
  CACHING.add(caching);
  return caching;
}

const MAX_CACHED_LENGTH = 4096;
// Shorter texts are counted (and remembered) whole.
const MIN_SEGMENTED_LENGTH = 256;
const MAX_TOKEN_CHARS = 256;
