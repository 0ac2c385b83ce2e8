import { estimateTokens, knownPrefix, type TokenCounter } from "@loupe/projection";
import type { ResultContent } from "../tool-result-content.js";
import type { TokenCountPool } from "./count-pool.js";

// Originals above this size get an estimate instead of an exact count (counting is ~10–20 MB/s in a busy server).
const EXACT_COUNT_MAX_BYTES = 64 * 1024;
// A result under this many bytes is counted whole by its fit check (see checkFit); a larger one up to its budget.
export const WHOLE_COUNT_MAX_BYTES = 8 * 1024;
/**
 * A rest of the original shorter than this is counted in the call's thread, after the projection: a
 * counting thread woken for it costs more (its caches are cold: 2–3× the CPU of the same count in the
 * call's thread, measured with 8 ms between jobs) and the count overlaps the save's wait anyway.
 */
export const POOLED_COUNT_MIN_CHARS = 16 * 1024;

/** The original's tokens: counted, or estimated (see knownOrEstimated). */
export interface TokenCount {
  tokens: number;
  estimated: boolean;
}

/**
 * The original's tokens when no exact count of it needs to be made: `counted` when a count of it all was
 * made already (a fit check that found it within budget, or a small result counted whole); estimated
 * (estimateTokens: from what the fit check counted) for a model without its own tokenizer — whose counts
 * are estimates however they are made — and above EXACT_COUNT_MAX_BYTES. Undefined when it must be
 * counted exactly. Made right after the fit check, so the estimate is the same in any thread.
 */
function knownOrEstimated(text: string, bytes: number, counter: TokenCounter, exact: boolean, counted: number | undefined): TokenCount | undefined {
  if (counted !== undefined) return { tokens: counted, estimated: !exact };
  if (!exact || bytes > EXACT_COUNT_MAX_BYTES) return { tokens: estimateTokens(text, bytes, counter), estimated: true };
  return undefined;
}

/**
 * The original's tokens, found in this thread: as knownOrEstimated, else counted exactly (through
 * `counter`'s cache when it is the call's caching counter).
 */
export function originalTokensHere(text: string, bytes: number, counter: TokenCounter, exact: boolean, counted: number | undefined): TokenCount {
  return knownOrEstimated(text, bytes, counter, exact, counted) ?? { tokens: counter.count(text), estimated: false };
}

/**
 * Starts counting the original's tokens and answers how to get them: known or estimated at once when no
 * exact count is needed (knownOrEstimated, with `counted` false when the fit check did not count it all);
 * else counted exactly. What the call's caching `counter` already counted of the text's start (the fit check's lines) is not counted again. The rest goes now to a
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
  const known = knownOrEstimated(content.text, bytes, counter, exact, counted === false ? undefined : counted);
  if (known !== undefined) return () => Promise.resolve(known);
  const here = (): Promise<TokenCount> => Promise.resolve().then(() => ({ tokens: counter.count(content.text), estimated: false }));
  if (pool === undefined || content.text.length < POOLED_COUNT_MIN_CHARS) return here;
  const prefix = knownPrefix(counter, content.text);
  const rest = content.text.slice(prefix.chars);
  const pooled = rest.length < POOLED_COUNT_MIN_CHARS ? undefined : pool.count(rest, counter.encoding);
  if (pooled === undefined) return here;
  const tokens = pooled.then(
    (restTokens) => prefix.tokens + restTokens,
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
