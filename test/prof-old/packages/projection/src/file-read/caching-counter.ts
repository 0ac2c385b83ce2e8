import type { TokenCounter } from "../token-counter.js";

/**
 * Wraps a counter for one projection: a projector estimates its shares by
 * counting lines, and the selection engine counts the same lines again (on
 * each attempt), so each line's count, or the largest limit it was found to
 * exceed, is remembered and reused. Only texts shorter than 4 KB are
 * remembered (lines, not whole views). Answers exactly as `counter` would.
 */
export function createCachingCounter(counter: TokenCounter): TokenCounter {
  const exact = new Map<string, number>();
  const over = new Map<string, number>();
  return {
    encoding: counter.encoding,
    count: (text) => {
      const known = exact.get(text);
      if (known !== undefined) return known;
      const counted = counter.count(text);
      if (text.length < MAX_CACHED_LENGTH) exact.set(text, counted);
      return counted;
    },
    within: (text, limit) => {
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
    },
  };
}

const MAX_CACHED_LENGTH = 4096;
