import { createCachingCounter, projectResult, type ProjectOptions, type ResultInput, type ResultView, type TokenCounter } from "@loupe/projection";
import { checkFit, originalTokensHere, type TokenCount } from "./original-tokens.js";

/** What a projection made in one thread gives back: the view (its `tokens` set) and the original's count. */
export interface ProjectedHere {
  view: ResultView & { tokens: number };
  original: TokenCount;
}

/** A projection's options without the counter, which each thread makes its own (they cross threads as they are). */
export type PortableProjectOptions = Omit<ProjectOptions, "counter" | "textTokens">;

/**
 * One projection done whole in the calling thread: the fit check, the original's count (or estimate),
 * the projection and the view's count, all through one caching counter over `base` — the same view, counts
 * and order of work as Project's own path (checkFit, countOriginal, then projectResult with what it
 * counted), with no save started between them. What a projection thread runs (see count-worker.ts). Pure
 * but for the counter's cache.
 */
export function projectHere(input: ResultInput, options: PortableProjectOptions, base: TokenCounter, bytes: number, exact: boolean): ProjectedHere {
  const counter = createCachingCounter(base);
  const { counted } = checkFit(input.text, bytes, counter, options.budgetTokens);
  // Before the projection, as in the call's thread: an estimate reads only what the fit check counted.
  const original = originalTokensHere(input.text, bytes, counter, exact, counted);
  const view = projectResult(input, { ...options, counter, ...(counted === undefined ? {} : { textTokens: counted }) });
  const tokens = view.tokens ?? counter.count(view.text);
  return { view: { ...view, tokens }, original };
}
