import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { boundIntent } from "./bound-intent.js";
import { intentTerms, type IntentTerm } from "./intent-terms.js";
import { matchIntent, NO_MATCHES, type IntentMatches, type MatchOptions } from "./match-intent.js";

// One match per projector input, intent and options: a projector may ask again (notice rounds, a mixed result's text part).
const cache = new WeakMap<ProjectorInput, { key: string; matches: IntentMatches }>();

/**
 * Where the context's intent points in a projector's input (see
 * {@link matchIntent}); no matches without an intent. The intent is bounded
 * to MAX_INTENT_BYTES first, and the terms of the call's own arguments (the
 * file it reads, the pattern it searched for, and the dotted module names of a
 * path it names: `astropy/modeling/separable.py` leaves out
 * `astropy.modeling.separable` and `astropy.modeling`) are left out: the
 * intent's message names them because it made the call, not because a line of
 * the output matters more for holding them (in the file read, they are the
 * file naming itself, mostly in its docstrings' examples). Remembered per input
 * object.
 */
export function intentMatchesOf(input: ProjectorInput, context: Pick<ProjectorContext, "intent">, options: MatchOptions = {}): IntentMatches {
  const intent = context.intent === undefined ? "" : boundIntent(context.intent);
  if (intent.trim() === "") return NO_MATCHES;
  const key = `${String(options.neighbourWeight ?? 0)}/${String(options.neighbourRadius ?? 0)}\n${intent}`;
  const known = cache.get(input);
  if (known !== undefined && known.key === key) return known.matches;
  const matches = matchIntent(input.text, input.lines, termsBeyondArgs(intentTerms(intent), input.args), options);
  cache.set(input, { key, matches });
  return matches;
}

/** `terms` less those the call's arguments hold (as `intentTerms` finds them in the arguments' text values) and their paths' module names. */
function termsBeyondArgs(terms: readonly IntentTerm[], args: Readonly<Record<string, unknown>>): IntentTerm[] {
  const values = Object.values(args).map((value) => (typeof value === "string" ? value : (JSON.stringify(value) ?? "")));
  const text = boundIntent(values.join("\n"));
  if (text.trim() === "") return [...terms];
  const asked = new Set(intentTerms(text).map((term) => term.text));
  for (const term of [...asked]) for (const name of modulesOfPath(term)) asked.add(name);
  return terms.filter((term) => !asked.has(term.text));
}

// A path's dotted module names: every run of two parts or more, so `/testbed/astropy/modeling/separable.py` gives
// astropy.modeling.separable and astropy.modeling (and testbed.astropy…, which no intent writes).
function modulesOfPath(path: string): string[] {
  if (!path.includes("/")) return [];
  const parts = path
    .replace(/\.[A-Za-z]\w{0,7}$/, "")
    .split("/")
    .filter((part) => /^[A-Za-z_]\w*$/.test(part));
  const names: string[] = [];
  for (let start = 0; start < parts.length - 1; start++) for (let end = start + 2; end <= parts.length; end++) names.push(parts.slice(start, end).join("."));
  return names;
}
