import { knownPrefix, utf8Length, type TokenCounter } from "@loupe/projection";
import type { ResultContent } from "../tool-result-content.js";
import type { TokenCountPool } from "./count-pool.js";

// Originals above this size get an estimate instead of an exact count (counting is ~10–20 MB/s in a busy server).
const EXACT_COUNT_MAX_BYTES = 64 * 1024;
// An original with nothing counted of it is estimated at this many bytes a token.
const ESTIMATED_BYTES_PER_TOKEN = 4;
// A result under this many bytes is counted whole by its fit check (see checkFit); a larger one up to its budget.
export const WHOLE_COUNT_MAX_BYTES = 8 * 1024;
/**
 * A rest of the original shorter than this is counted in the call's thread, after the projection: a
 * counting thread woken for it costs more (its caches are cold: 2–3× the CPU of the same count in the
 * call's thread, measured with 8 ms between jobs) and the count overlaps the save's wait anyway.
 */
export const POOLED_COUNT_MIN_CHARS = 16 * 1024;

/** The original's tokens: counted when small enough, else estimated from its bytes. */
export interface TokenCount {
  tokens: number;
  estimated: boolean;
}

/**
 * The original's tokens estimated from what the fit check counted of its start: those tokens, and the
 * rest's bytes at the same bytes a token (on the eval corpora's cut outputs of 8–64 KB, 423 of them:
 * 2.0% off at the median, 7.2% at p90, 0.6% high on average, against 6.8% and 24.6% for 4 bytes a token,
 * which is what an original nothing was counted of gets).
 */
export function estimateTokens(text: string, bytes: number, counter: TokenCounter): number {
  const known = knownPrefix(counter, text);
  const knownBytes = known.tokens === 0 ? 0 : utf8Length(text.slice(0, known.chars));
  if (knownBytes === 0) return Math.ceil(bytes / ESTIMATED_BYTES_PER_TOKEN);
  return known.tokens + Math.ceil(((bytes - knownBytes) * known.tokens) / knownBytes);
}

/**
 * The original's tokens, found in this thread: `counted` when a count of it all was made already (a fit
 * check that found it within budget, or a small result counted whole); estimated (estimateTokens) for a
 * model without its own tokenizer — whose counts are estimates however they are made — and above
 * EXACT_COUNT_MAX_BYTES; else counted exactly (through `counter`'s cache when it is the call's caching
 * counter). Made right after the fit check, so the estimate is the same in any thread.
 */
export function originalTokensHere(text: string, bytes: number, counter: TokenCounter, exact: boolean, counted: number | undefined): TokenCount {
  if (counted !== undefined) return { tokens: counted, estimated: !exact };
  if (!exact || bytes > EXACT_COUNT_MAX_BYTES) return { tokens: estimateTokens(text, bytes, counter), estimated: true };
  return { tokens: counter.count(text), estimated: false };
}

/**
 * Starts counting the original's tokens and answers how to get them: taken from a count already made of
 * it all (`counted`: a fit check that found it within budget, or a small result counted whole); for a
 * model without its own tokenizer, or above EXACT_COUNT_MAX_BYTES, estimated from what the fit check
 * counted (estimateTokens, made now); else counted exactly. What the call's caching `counter`
 * already counted of the text's start (the fit check's lines) is not counted again. The rest goes now to a
 * thread of `pool` when it is POOLED_COUNT_MIN_CHARS or longer and a thread is free (it counts on another
 * core while this thread projects); otherwise this thread counts it through the cache once the answer is
 * asked for — after the projection, whose lines are then known, while the save's commit runs on the
 * store's own thread. Whatever thread counts, the count is the same. `counter` must count as the pool's
 * threads do (the default counters, or a caching counter of one).
 */
export function countOriginal(
  content: ResultContent,
  counter: TokenCounter,
  exact: boolean,
  counted: number | false,
  pool?: TokenCountPool,
): () => Promise<TokenCount> {
  const bytes = content.bytes.byteLength;
  if (counted !== false || !exact || bytes > EXACT_COUNT_MAX_BYTES) {
    const known = originalTokensHere(content.text, bytes, counter, exact, counted === false ? undefined : counted);
    return () => Promise.resolve(known);
  }
  const here = (): Promise<TokenCount> => Promise.resolve().then(() => originalTokensHere(content.text, bytes, counter, true, undefined));
  if (pool === undefined || content.text.length < POOLED_COUNT_MIN_CHARS) return here;
  const known = knownPrefix(counter, content.text);
  const rest = content.text.slice(known.chars);
  const pooled = rest.length < POOLED_COUNT_MIN_CHARS ? undefined : pool.count(rest, counter.encoding);
  if (pooled === undefined) return here;
  const tokens = pooled.then(
    (restTokens) => known.tokens + restTokens,
    () => counter.count(content.text),
  );
  return () => tokens.then((total) => ({ tokens: total, estimated: false }));
}

/**
 * The fit check of a result's text against its budget: `fitted` is its tokens when it fits, else false;
 * `counted` is its tokens when they are all known. A result under WHOLE_COUNT_MAX_BYTES is counted whole
 * (line by line into `counter`'s cache when it is the call's caching counter, which the projection then
 * reuses), so its count is the original's too; a larger one only up to the budget, so it is known only
 * when it fits.
 */
export function checkFit(text: string, bytes: number, counter: TokenCounter, budgetTokens: number): { fitted: number | false; counted: number | undefined } {
  if (bytes < WHOLE_COUNT_MAX_BYTES) {
    const counted = counter.count(text);
    return { fitted: counted <= budgetTokens ? counted : false, counted };
  }
  const fitted = counter.within(text, budgetTokens);
  return { fitted, counted: fitted === false ? undefined : fitted };
}
