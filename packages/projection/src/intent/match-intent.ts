import { boostDefinitions } from "./definitions.js";
import type { IntentTerm } from "./intent-terms.js";
import { scoreLineReferences } from "./line-references.js";
import { addNeighbourScores } from "./neighbour-scores.js";

/** One intent term found in an output. */
export interface TermMatch {
  readonly text: string;
  /** What one line mentioning it adds to that line's score: the term's prior times its rarity in the output. */
  readonly weight: number;
  /** The lines (0-based, ascending) that mention it; for a term too common to weigh, only the first ones. */
  readonly lines: readonly number[];
  /** False when the term mentions more lines than were collected (then its weight is 0). */
  readonly complete: boolean;
}

/** Where an intent's terms occur in an output. */
export interface IntentMatches {
  /** Lines mentioning a weighted term (0-based), best first: score, then position. */
  readonly ranked: readonly number[];
  /** Each ranked line's score (the sum of the weights of the distinct terms it mentions). */
  readonly scores: ReadonlyMap<number, number>;
  /** The terms found, most weighty first; terms on too many lines to point anywhere have weight 0. */
  readonly terms: readonly TermMatch[];
  /** For each ranked line that defines a name the intent uses, the end (exclusive) of its body (see boostDefinitions). */
  readonly bodies: ReadonlyMap<number, number>;
}

/** How {@link matchIntent} ranks lines beyond the terms they mention. */
export interface MatchOptions {
  /** Each line also scores this share of the scores of the matched lines within `neighbourRadius` of it (default 0: none). */
  readonly neighbourWeight?: number;
  readonly neighbourRadius?: number;
}

// One scan looks for every term at once; a very large output is searched for its most specific terms only
// (TERMS_PER_SCAN × MAX_SCANNED_CHARS / its length of them), so matching stays a small part of a projection's cost.
const MAX_SCANNED_CHARS = 24_000_000;
const TERMS_PER_SCAN = 3;
const MIN_TERMS_SCANNED = 2;
// A term on more than this share of the lines (and more than a few) does not single any of them out …
const MAX_LINE_SHARE = 0.2;
const MIN_COMMON_LINES = 8;
// … and a term on more lines than this singles none of them out either, however long the output.
const MAX_COMMON_LINES = 64;

/** No matches (no intent, or nothing of it in the output). */
export const NO_MATCHES: IntentMatches = Object.freeze({ ranked: [], scores: new Map<number, number>(), terms: [], bodies: new Map<number, number>() });

/**
 * Finds the intent's terms in `text` (whose lines are `lines`) and scores
 * each line by the terms it mentions, each weighted by its prior and by how
 * rare it is in this output (log of lines over lines mentioning it; 0 for a
 * term on more than a fifth of the lines, or more than 64); a line that
 * defines one of them (def, class, function … name) counts six times, and
 * its body is noted; in a numbered file read, a line whose number the
 * intent names scores too (see scoreLineReferences); with
 * `neighbourWeight`, matches near other matches rank higher. All terms are
 * looked for in one scan; a very large output only for its most specific
 * ones. Pure and deterministic.
 */
export function matchIntent(text: string, lines: readonly string[], terms: readonly IntentTerm[], options: MatchOptions = {}): IntentMatches {
  if (terms.length === 0 || lines.length === 0) return NO_MATCHES;
  const common = Math.max(MIN_COMMON_LINES, Math.min(MAX_COMMON_LINES, Math.floor(lines.length * MAX_LINE_SHARE)));
  const scanned = terms.slice(0, Math.max(MIN_TERMS_SCANNED, Math.floor((TERMS_PER_SCAN * MAX_SCANNED_CHARS) / Math.max(1, text.length))));
  const hits = linesMentioning(text, lineStarts(lines), scanned, common + 1);
  const found: TermMatch[] = [];
  for (const term of scanned) {
    const hit = hits.get(term.text);
    if (hit === undefined) continue;
    const complete = hit.length <= common;
    const weight = complete ? term.prior * Math.log2(1 + lines.length / hit.length) : 0;
    found.push({ text: term.text, weight, lines: hit, complete });
  }
  const scores = new Map<number, number>();
  for (const term of found) {
    if (term.weight === 0) continue;
    for (const line of term.lines) scores.set(line, (scores.get(line) ?? 0) + term.weight);
  }
  const bodies = boostDefinitions(scores, lines, new Set(found.filter((term) => term.weight > 0).map((term) => term.text)));
  scoreLineReferences(scores, lines, terms);
  addNeighbourScores(scores, options.neighbourRadius ?? 0, options.neighbourWeight ?? 0);
  const ranked = [...scores.keys()].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || a - b);
  found.sort((a, b) => b.weight - a.weight || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return { ranked, scores, terms: found, bodies };
}

/** UTF-16 offset of each line's start, and the text's length last. */
function lineStarts(lines: readonly string[]): Float64Array {
  const starts = new Float64Array(lines.length + 1);
  let offset = 0;
  for (let index = 0; index < lines.length; index++) {
    starts[index] = offset;
    offset += (lines[index] ?? "").length;
  }
  starts[lines.length] = offset;
  return starts;
}

const escapePattern = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The lines (ascending, one entry per line, at most `limit`) holding each
 * term, from one scan of the text for all terms at once: a regular
 * expression of the terms, longest first, moved on one character past each
 * match, so a match inside or overlapping a longer one later in the line is
 * found too; a term inside a match that starts where it does is credited
 * through the longer one. A term found on more than `limit` lines is no
 * longer looked for.
 */
function linesMentioning(text: string, starts: Float64Array, terms: readonly IntentTerm[], limit: number): Map<string, number[]> {
  let texts = [...new Set(terms.map((term) => term.text))].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  let pattern = alternation(texts);
  // For each matched text, the terms it holds (itself included), worked out once.
  const within = new Map<string, string[]>();
  const found = new Map<string, number[]>();
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const matched = match[0];
    let held = within.get(matched);
    if (held === undefined) within.set(matched, (held = texts.filter((term) => matched.includes(term))));
    const line = lineAt(starts, match.index);
    for (const term of held) {
      let list = found.get(term);
      if (list === undefined) found.set(term, (list = []));
      if (list.length <= limit && list[list.length - 1] !== line) list.push(line);
    }
    const from = match.index + 1;
    // A term past the limit weighs nothing: looking for it on every later line would cost the most.
    if ((found.get(matched)?.length ?? 0) > limit) {
      texts = texts.filter((term) => (found.get(term)?.length ?? 0) <= limit);
      if (texts.length === 0) break;
      pattern = alternation(texts);
    }
    pattern.lastIndex = from;
  }
  return found;
}

/** One regular expression matching any of `texts` (longest first, as given), literally. */
function alternation(texts: readonly string[]): RegExp {
  return new RegExp(texts.map(escapePattern).join("|"), "g");
}

/** The line holding offset `at` (binary search over the starts). */
function lineAt(starts: Float64Array, at: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}
