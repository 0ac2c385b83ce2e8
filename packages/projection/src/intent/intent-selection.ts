import type { LineBlock } from "../lines/select-lines.js";
import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import type { TokenCounter } from "../token-counter.js";
import { intentBlocks } from "./intent-blocks.js";
import { moreMatchesNotice } from "./intent-notice.js";
import { intentMatchesOf } from "./intent-of.js";
import type { MatchOptions } from "./match-intent.js";

/** What a line-based projector adds for an intent: blocks for the lines it points at, and the notice for the rest. */
export interface IntentSelection {
  /** One-line `all` blocks (matched lines and their context), in line order. */
  blocks: LineBlock[];
  /** The lines of `blocks`, ascending. */
  chosen: number[];
  /** What the chosen lines cost, with one gap notice per separate run of them. */
  tokens: number;
  /** For buildLineView's `selectionNotice`: names matches the view leaves out; absent when nothing matched. */
  selectionNotice?: (kept: Uint8Array) => string;
  /** Each matched line's score (0-based line → score); empty when nothing matched. */
  scores: ReadonlyMap<number, number>;
}

/** How a projector places the intent's lines. */
export interface IntentSelectionOptions {
  counter: TokenCounter;
  gapTokens: number;
  /** Tokens the matched lines and their context may cost (a share of the budget). */
  maxTokens: number;
  before: number;
  after: number;
  priority: number;
  /** Lines the view keeps anyway. */
  expected?: Uint8Array;
  /** How lines rank beyond the terms they mention (see MatchOptions); default none. */
  match?: MatchOptions;
}

/**
 * The intent's part of a line-based view (see {@link intentBlocks} and
 * {@link moreMatchesNotice}): nothing when the context has no intent or
 * nothing of it occurs in the input.
 */
export function intentSelection(input: ProjectorInput, context: ProjectorContext, options: IntentSelectionOptions): IntentSelection {
  const matches = intentMatchesOf(input, context, options.match);
  if (matches.ranked.length === 0) return { blocks: [], chosen: [], tokens: 0, scores: matches.scores };
  const { blocks, chosen } = intentBlocks({ lines: input.lines, matches, ...options });
  let tokens = 0;
  chosen.forEach((index, order) => {
    tokens += options.counter.count(input.lines[index] ?? "");
    if (order === 0 || chosen[order - 1] !== index - 1) tokens += options.gapTokens;
  });
  return { blocks, chosen, tokens, scores: matches.scores, selectionNotice: (kept) => moreMatchesNotice(matches, kept, context.resultId) };
}
