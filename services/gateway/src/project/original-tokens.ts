import { knownPrefix, type TokenCounter } from "@loupe/projection";
import type { ResultContent } from "../tool-result-content.js";
import type { TokenCountPool } from "./count-pool.js";

// Counting is ~8–12 MB/s: originals above this size get an estimate instead.
const EXACT_COUNT_MAX_BYTES = 64 * 1024;
const ESTIMATED_BYTES_PER_TOKEN = 4;
// Below this an original is counted in this thread: sending it to a counting thread would cost about as much.
export const POOLED_COUNT_MIN_BYTES = 8 * 1024;

/** The original's tokens: counted when small enough, else estimated from its bytes. */
export interface TokenCount {
  tokens: number;
  estimated: boolean;
}

/**
 * The original's tokens: taken from a count already made of it all (`counted`: a fit check that found it
 * within budget, or a small result counted whole), or counted — in a thread of `pool` when it has one free
 * for a result of POOLED_COUNT_MIN_BYTES or more (the count then runs on another core while this thread
 * projects and saves; in this thread when the pool has no thread free or its thread fails) — and above
 * EXACT_COUNT_MAX_BYTES estimated from its bytes. What the call's caching `counter` already counted of
 * the text's start (the fit check's lines) is not counted again: a thread counts the rest; this thread
 * counts through the cache. Whatever thread counts, the count is the same. `counter` must count as the
 * pool's threads do (the default counters, or a caching counter of one).
 */
export async function countOriginal(
  content: ResultContent,
  counter: TokenCounter,
  exact: boolean,
  counted: number | false,
  pool?: TokenCountPool,
): Promise<TokenCount> {
  if (counted !== false) return { tokens: counted, estimated: !exact };
  if (content.bytes.byteLength > EXACT_COUNT_MAX_BYTES) return { tokens: Math.ceil(content.bytes.byteLength / ESTIMATED_BYTES_PER_TOKEN), estimated: true };
  const known = content.bytes.byteLength >= POOLED_COUNT_MIN_BYTES && pool !== undefined ? knownPrefix(counter, content.text) : undefined;
  const rest = known === undefined || known.chars === 0 ? content.text : content.text.slice(known.chars);
  const pooled = known === undefined || rest === "" ? undefined : pool?.count(rest, counter.encoding);
  const tokens = pooled === undefined ? counter.count(content.text) : (known?.tokens ?? 0) + (await pooled.catch(() => counter.count(rest)));
  return { tokens, estimated: !exact };
}

/**
 * The fit check of a result's text against its budget: `fitted` is its tokens when it fits, else false;
 * `counted` is its tokens when they are all known. A result under POOLED_COUNT_MIN_BYTES is counted whole
 * (line by line into `counter`'s cache when it is the call's caching counter, which the projection then
 * reuses), so its count is the original's too; a larger one only up to the budget, so it is known only
 * when it fits.
 */
export function checkFit(text: string, bytes: number, counter: TokenCounter, budgetTokens: number): { fitted: number | false; counted: number | undefined } {
  if (bytes < POOLED_COUNT_MIN_BYTES) {
    const counted = counter.count(text);
    return { fitted: counted <= budgetTokens ? counted : false, counted };
  }
  const fitted = counter.within(text, budgetTokens);
  return { fitted, counted: fitted === false ? undefined : fitted };
}
