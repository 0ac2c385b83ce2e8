/** What an intent term is; it sets how much a match of it counts before rarity. */
export type IntentTermKind = "path" | "quoted" | "error" | "identifier" | "number" | "word";

/** A term drawn from an intent: text searched for, verbatim, in a tool's output. */
export interface IntentTerm {
  readonly text: string;
  readonly kind: IntentTermKind;
  /** How specific the term is before looking at the output (larger is more specific). */
  readonly prior: number;
}

/** Most terms one intent gives (the most specific first). */
export const MAX_INTENT_TERMS = 160;

const PRIORS: Readonly<Record<IntentTermKind, number>> = { path: 3, quoted: 2.5, error: 2.5, identifier: 2, number: 1.5, word: 0.6 };
// The end of an intent is the message that asked for this call: what the agent looks for now. Its terms count four times.
const RECENT_CHARS = 2500;
const RECENT_BOOST = 4;
// A plain word only in the task (a long issue text) says little about this call.
const TASK_WORD = 0.3;
// Each whitespace-separated word of the intent is looked at alone (anchored patterns, no backtracking across words).
const WORD = /[^\s"'`()[\]{}<>,;=]+/g;
const PATH_WORD = /^(?:\.{0,2}\/)?(?:[\w.@+-]+\/)+[\w.@+-]+|^[\w-]+\.[A-Za-z]\w{0,7}\b/;
const QUOTED = /"([^"\n]{3,120})"|'([^'\n]{3,120})'|`([^`\n]{3,120})`/g;
const ERROR = /^[A-Z]\w*(?:Error|Exception|Warning|Failure)$/;
const IDENTIFIER = /[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*/g;
const NUMBER = /^\d{2,}$/;
const EDGE_PUNCTUATION = /^[.:]|[.:!?]$/;
// Words too common in prose and output to point anywhere.
const STOP_WORDS = new Set(
  "about above after again also because been before being below between both cannot could does doing during each error errors file files from have having here into itself just line lines more most must need only other output same should some such than that their them then there these they this those through test tests under until very what when where which while with would your true false none null self return import class def function const value values result".split(
    " ",
  ),
);

/**
 * The terms of an intent (the task and the message that asked for a call):
 * paths and their base names, quoted strings, error names, identifiers
 * (snake_case, camelCase, dotted names and their last part), numbers of two
 * digits or more, and other words of five letters or more, deduplicated; the
 * most specific first (kind and length; a term in the intent's last 2,500
 * characters, the message that asked for the call, counts four times), at most
 * {@link MAX_INTENT_TERMS}.
 * Pure; linear in the intent's length.
 */
export function intentTerms(intent: string): IntentTerm[] {
  const found = new Map<string, { kind: IntentTermKind; recent: boolean }>();
  const recentFrom = intent.length - RECENT_CHARS;
  let recent = false;
  const add = (text: string, kind: IntentTermKind): void => {
    const term = text.trim();
    if (term.length < 3) return;
    const known = found.get(term);
    if (known === undefined) found.set(term, { kind, recent });
    else if (recent) known.recent = true;
  };
  for (const match of intent.matchAll(QUOTED)) {
    recent = match.index >= recentFrom;
    add(match[1] ?? match[2] ?? match[3] ?? "", "quoted");
  }
  // Intents repeat their words: each distinct word is parsed once.
  const parsed = new Map<string, Array<[string, IntentTermKind]>>();
  for (const match of intent.matchAll(WORD)) {
    recent = match.index >= recentFrom;
    let terms = parsed.get(match[0]);
    if (terms === undefined) {
      const collected: Array<[string, IntentTermKind]> = [];
      addWord(match[0], (text, kind) => collected.push([text, kind]));
      parsed.set(match[0], (terms = collected));
    }
    for (const [text, kind] of terms) add(text, kind);
  }
  return [...found]
    .map(([text, { kind, recent: isRecent }]): IntentTerm => ({
      text,
      kind,
      prior: PRIORS[kind] * Math.min(2, 0.6 + text.length / 12) * (isRecent ? RECENT_BOOST : kind === "word" ? TASK_WORD : 1),
    }))
    .sort((a, b) => b.prior - a.prior || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .slice(0, MAX_INTENT_TERMS);
}

/** The terms of one whitespace-separated word: a number, a path and its base name, an error name, identifiers. */
function addWord(word: string, add: (text: string, kind: IntentTermKind) => void): void {
  const trimmed = EDGE_PUNCTUATION.test(word) ? word.replace(/^[.:]+|[.:!?]+$/g, "") : word;
  if (trimmed.length < 2) return;
  if (NUMBER.test(trimmed)) {
    add(trimmed, "number");
    return;
  }
  if (trimmed.includes("/") || trimmed.includes(".")) {
    const path = PATH_WORD.exec(trimmed)?.[0];
    if (path !== undefined && (path.includes("/") || /\.[A-Za-z]\w{0,7}$/.test(path))) addPath(path, add);
  }
  if (ERROR.test(trimmed)) add(trimmed, "error");
  for (const [name] of trimmed.matchAll(IDENTIFIER)) addIdentifier(name, add);
  if (/\d\d/.test(trimmed)) for (const [digits] of trimmed.matchAll(/\d{2,}/g)) add(digits, "number");
}

function addPath(text: string, add: (text: string, kind: IntentTermKind) => void): void {
  const path = text.replace(/^\.\//, "").replace(/^\/(?:testbed|workspace|repo|app)\//, "");
  add(path, "path");
  const base = path.slice(path.lastIndexOf("/") + 1);
  if (base.length >= 4) add(base, "path");
}

function addIdentifier(name: string, add: (text: string, kind: IntentTermKind) => void): void {
  const parts = name.split(/\.|::|->/);
  if (parts.length > 1) {
    add(name, "identifier");
    for (const part of parts) addIdentifier(part, add);
    return;
  }
  if (/[_$]|\d|[a-z][A-Z]|^[A-Z][a-z]+[A-Z]/.test(name) && name.length >= 4) add(name, "identifier");
  else if (/^[A-Z][a-z]{3,}/.test(name) && !STOP_WORDS.has(name.toLowerCase())) add(name, "identifier");
  else if (name.length >= 5 && !STOP_WORDS.has(name.toLowerCase())) add(name, "word");
}
