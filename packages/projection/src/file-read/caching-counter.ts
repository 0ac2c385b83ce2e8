import type { TokenCounter } from "../token-counter.js";
import { segmentEnd, segmentText } from "./token-segments.js";

// Each caching counter with its exact counts (for knownPrefix; a counter found here is a caching one).
const EXACT_OF = new WeakMap<TokenCounter, ReadonlyMap<string, number>>();

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
  if (EXACT_OF.has(counter)) return counter;
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
      for (let start = 0, end = 0; start < text.length; start = end) {
        end = segmentEnd(text, start);
        total += countOne(segmentText(text, start, end));
      }
      return total;
    },
    within: (text, limit) => {
      if (text.length < MIN_SEGMENTED_LENGTH) return withinOne(text, limit);
      // No token spans more than 256 characters (see createTokenCounter): a longer text is over without counting.
      if (text.length > (limit + 1) * MAX_TOKEN_CHARS) return false;
      let total = 0;
      for (let start = 0, end = 0; start < text.length; start = end) {
        end = segmentEnd(text, start);
        const counted = withinOne(segmentText(text, start, end), limit - total);
        if (counted === false) return false;
        total += counted;
      }
      return total;
    },
  };
  EXACT_OF.set(caching, exact);
  return caching;
}

/**
 * The longest run of whole segments (see `tokenSegments`) at the start of `text` whose counts `counter`,
 * a caching counter, already knows — as a fit check leaves them: their tokens, and the length of text they
 * cover. The tokens of the rest, counted alone by any counter of the same encoding, added to these give
 * the count of the whole text (the rest starts where the tokenizer's pre-tokenization starts a piece).
 * Nothing is known of a counter that does not cache.
 */
export function knownPrefix(counter: TokenCounter, text: string): { tokens: number; chars: number } {
  const exact = EXACT_OF.get(counter);
  if (exact === undefined) return { tokens: 0, chars: 0 };
  if (text.length < MIN_SEGMENTED_LENGTH) {
    const known = exact.get(text);
    return known === undefined ? { tokens: 0, chars: 0 } : { tokens: known, chars: text.length };
  }
  let tokens = 0;
  let chars = 0;
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = segmentEnd(text, start);
    const known = exact.get(segmentText(text, start, end));
    if (known === undefined) break;
    tokens += known;
    chars = end;
  }
  return { tokens, chars };
}

const MAX_CACHED_LENGTH = 4096;
// Shorter texts are counted (and remembered) whole.
const MIN_SEGMENTED_LENGTH = 256;
const MAX_TOKEN_CHARS = 256;
