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
  /** Of {@link LongTotals.evidence}, the names: paths, `file:line`s, identifiers and error names (see NAME_KINDS). */
  names: number;
  /** Of {@link LongTotals.names}, those present in the first view. */
  namesInView: number;
}

/**
 * The evidence kinds that name something — paths, `file:line`s, identifiers (test names among them) and
 * error names — without the numbers and quoted strings: the items the first view's target was set on.
 * The numbers are mostly line numbers the agent picked for its next read, the quoted strings mostly
 * fragments of code; both are kept in the view only by showing that very line.
 */
export const NAME_KINDS: ReadonlySet<string> = new Set(["path", "file-line", "identifier", "error-name"]);

/** All-zero long-output totals. */
export function emptyLongTotals(): LongTotals {
  return { outputs: 0, viewTokens: 0, evidence: 0, inView: 0, reachable: 0, names: 0, namesInView: 0 };
}

/** Adds `more` into `into` and returns `into`. */
export function addLongTotals(into: LongTotals, more: LongTotals): LongTotals {
  into.outputs += more.outputs;
  into.viewTokens += more.viewTokens;
  into.evidence += more.evidence;
  into.inView += more.inView;
  into.reachable += more.reachable;
  into.names += more.names;
  into.namesInView += more.namesInView;
  return into;
}
