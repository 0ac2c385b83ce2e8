import { compileRedactionRules } from "./compile-redaction-rules.js";
import { DEFAULT_REDACTION_RULES } from "./default-redaction-rules.js";
import { findKeywords, keywordSearch, type KeywordSearch } from "./find-keywords.js";
import type { CompiledRule } from "./redaction-rule.js";

/** The outcome of `redactSecrets`. */
export interface RedactionResult {
  /** The text with every secret replaced by its mask. */
  text: string;
  /** Number of secrets masked. */
  count: number;
  /** Secrets masked per rule name; names with no match are absent. */
  byRule: Record<string, number>;
}

/** Prefix of every mask: `[REDACTED:<rule name>]`. */
export const REDACTION_MASK_PREFIX = "[REDACTED:";

const MASK = /\[REDACTED:[a-z0-9][a-z0-9-]{0,63}\]/g;
// Masking can put a mask next to text a rule then matches (a lookbehind or
// \b that now sees "]"); a few passes reach the fixed point for any sane rule.
const MAX_PASSES = 4;

let defaultRules: CompiledRule[] | undefined;
// Each rule set's keywords, made ready when the set is first used (rule sets are compiled once and kept).
const KEYWORD_SEARCHES = new WeakMap<readonly CompiledRule[], KeywordSearch>();

function keywordSearchOf(rules: readonly CompiledRule[]): KeywordSearch {
  let search = KEYWORD_SEARCHES.get(rules);
  if (search === undefined) {
    search = keywordSearch(rules.flatMap((rule) => rule.keywords));
    KEYWORD_SEARCHES.set(rules, search);
  }
  return search;
}

/**
 * Masks secrets in `text`: each span a rule matches (its `group`, or the
 * whole match) becomes `[REDACTED:<rule name>]`; nothing of the secret is
 * kept, and the text around it is unchanged byte for byte.
 *
 * Rules run in order and the first wins: a match that overlaps a span an
 * earlier rule (or an earlier match of the same rule) masked is dropped, so
 * nothing is masked twice. Masks already in the text are never matched
 * again, and the function repeats until no rule matches (at most 4 passes),
 * so redacting redacted text changes nothing. Deterministic; rules whose
 * keywords the text lacks cost a substring search. Default rules:
 * `DEFAULT_REDACTION_RULES`. Throws nothing (rules are checked when compiled).
 */
export function redactSecrets(text: string, rules: readonly CompiledRule[] = compiledDefaults()): RedactionResult {
  const byRule: Record<string, number> = {};
  let count = 0;
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const spans = findSpans(current, rules);
    if (spans.length === 0) break;
    for (const span of spans) byRule[span.name] = (byRule[span.name] ?? 0) + 1;
    count += spans.length;
    current = applySpans(current, spans);
  }
  return { text: current, count, byRule };
}

function compiledDefaults(): CompiledRule[] {
  defaultRules ??= compileRedactionRules(DEFAULT_REDACTION_RULES);
  return defaultRules;
}

interface Span {
  start: number;
  end: number;
  name: string;
}

/** Accepted spans, sorted by start, pairwise disjoint, none touching a mask already in the text. */
function findSpans(text: string, rules: readonly CompiledRule[]): Span[] {
  // Sorted, disjoint; masks already in the text (name "") are taken from the start.
  let taken: Span[] = text.includes(REDACTION_MASK_PREFIX)
    ? Array.from(text.matchAll(MASK), (mask) => ({ start: mask.index, end: mask.index + mask[0].length, name: "" }))
    : [];
  const present = findKeywords(text, keywordSearchOf(rules));
  for (const rule of rules) {
    if (!mayMatch(rule, text, present)) continue;
    const fresh = freeSpans(text, rule, taken);
    if (fresh.length > 0) taken = mergeSorted(taken, fresh);
  }
  return taken.filter((span) => span.name !== "");
}

/** Whether one of the rule's keywords is in the text (`present` holds those found ignoring case). */
function mayMatch(rule: CompiledRule, text: string, present: ReadonlySet<string>): boolean {
  if (rule.keywords.length === 0) return true;
  return rule.keywords.some((keyword) => present.has(keyword.toLowerCase()) && (rule.ignoreCase || text.includes(keyword)));
}

/** The rule's spans that overlap neither `taken` nor each other, in order: one sweep over both. */
function freeSpans(text: string, rule: CompiledRule, taken: readonly Span[]): Span[] {
  const fresh: Span[] = [];
  let next = 0;
  let lastEnd = 0;
  for (const match of text.matchAll(rule.regex)) {
    const span = spanOf(match, rule);
    // A group can lie before the previous one (in a lookahead); keeping the sweep monotonic drops it.
    if (span === undefined || span.start < lastEnd) continue;
    while (next < taken.length && (taken[next]?.end ?? 0) <= span.start) next++;
    if (next < taken.length && (taken[next]?.start ?? 0) < span.end) continue;
    fresh.push(span);
    lastEnd = span.end;
  }
  return fresh;
}

function mergeSorted(a: readonly Span[], b: readonly Span[]): Span[] {
  const merged: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const left = a[i];
    const right = b[j];
    if (right === undefined || (left !== undefined && left.start < right.start)) {
      merged.push(left as Span);
      i++;
    } else {
      merged.push(right);
      j++;
    }
  }
  return merged;
}

function spanOf(match: RegExpExecArray | RegExpMatchArray, rule: CompiledRule): Span | undefined {
  if (rule.group === 0) {
    const start = match.index ?? 0;
    return match[0].length === 0 ? undefined : { start, end: start + match[0].length, name: rule.name };
  }
  const indices = match.indices?.[rule.group];
  if (indices === undefined || indices[1] <= indices[0]) return undefined;
  return { start: indices[0], end: indices[1], name: rule.name };
}

function applySpans(text: string, spans: readonly Span[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const span of spans) {
    parts.push(text.slice(at, span.start), `${REDACTION_MASK_PREFIX}${span.name}]`);
    at = span.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
