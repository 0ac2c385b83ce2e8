/** Outputs longer than this many characters are where a first view's choices matter most (the measure). */
export const LONG_OUTPUT_CHARS = 8000;

/** Sums over outputs longer than {@link LONG_OUTPUT_CHARS}, cut or not. */
export interface LongTotals {
  outputs: number;
  /** Σ of their first views' tokens (o200k). */
  viewTokens: number;
  /** Their evidence items. */
  evidence: number;
  /** Items present in the first view. */
  inView: number;
  /** Items in the first view or reached by one recovery. */
  reachable: number;
}

/** All-zero long-output totals. */
export function emptyLongTotals(): LongTotals {
  return { outputs: 0, viewTokens: 0, evidence: 0, inView: 0, reachable: 0 };
}

/** Adds `more` into `into` and returns `into`. */
export function addLongTotals(into: LongTotals, more: LongTotals): LongTotals {
  into.outputs += more.outputs;
  into.viewTokens += more.viewTokens;
  into.evidence += more.evidence;
  into.inView += more.inView;
  into.reachable += more.reachable;
  return into;
}
