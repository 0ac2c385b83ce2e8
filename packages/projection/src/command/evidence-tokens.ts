import type { TokenCounter } from "../token-counter.js";
import type { LineKind } from "./classify-lines.js";
import type { ErrorBlock } from "./find-error-blocks.js";

/** Options for {@link evidenceTokens}. */
export interface EvidenceTokensOptions {
  counter: TokenCounter;
  /** Stop counting past this many tokens. */
  limit: number;
  /** Tokens one gap notice costs. */
  noticeTokens: number;
  /** Where the last lines that count as verdict lines start (see lastLinesStart). */
  tailStart: number;
}

/** What a command's evidence costs in a view, in tokens (each at most `limit + 1`). */
export interface EvidenceCost {
  /** The key lines of every error block, plus one gap notice per separate run of them and one more. */
  errors: number;
  /** The error lines together with the verdict lines (summaries, pytest's short summary block, the last lines) and their notices. */
  all: number;
}

/**
 * What the evidence of a command's output costs in a view. Counts only the
 * evidence lines, and stops past `limit` (then reports `limit + 1`), so it
 * never tokenizes a whole large output.
 */
export function evidenceTokens(
  lines: readonly string[],
  kinds: readonly LineKind[],
  errorBlocks: readonly ErrorBlock[],
  options: EvidenceTokensOptions,
): EvidenceCost {
  const errorLines = new Uint8Array(lines.length);
  for (const block of errorBlocks) for (const segment of block.segments) if (segment.rank === 0) errorLines.fill(1, segment.start, segment.end);
  const allLines = errorLines.slice();
  for (let index = 0; index < kinds.length; index++) if (kinds[index] === "summary" || kinds[index] === "summary_block") allLines[index] = 1;
  allLines.fill(1, Math.max(0, options.tailStart));
  return { errors: cost(lines, errorLines, options), all: cost(lines, allLines, options) };
}

function cost(lines: readonly string[], marked: Uint8Array, options: EvidenceTokensOptions): number {
  let tokens = 0;
  let runs = 0;
  for (let index = marked.indexOf(1); index !== -1 && index < lines.length; index = marked.indexOf(1, index + 1)) {
    if (index === 0 || marked[index - 1] !== 1) runs++;
    const counted = options.counter.within(lines[index] ?? "", options.limit - tokens);
    if (counted === false) return options.limit + 1;
    tokens += counted;
  }
  tokens += (runs + 1) * options.noticeTokens;
  return tokens > options.limit ? options.limit + 1 : tokens;
}
