import type { ExtractiveState } from "./extractive-state.js";
import { LIMITS } from "./extractive-state.js";

// A code name: snake_case, camelCase or PascalCase with an inner capital; plain words are not names.
const WORD = /(?<![\\\w])[A-Za-z_][A-Za-z0-9_]*/g;

function isCodeName(word: string): boolean {
  if (word.length < LIMITS.nameMinChars || word.length > LIMITS.nameMaxChars) return false;
  if (!/[A-Za-z]/.test(word.replace(/_/g, ""))) return false;
  return word.includes("_") || /[a-z][A-Z]/.test(word);
}

/**
 * The code names (identifiers in snake_case or camelCase, class and error
 * names) in `text`, each once, in order of first appearance. A word right
 * after a backslash (`\nLooking` in a script's string) is not a name. Pure.
 */
export function namesOf(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(WORD)) if (isCodeName(match[0])) names.add(match[0]);
  return [...names];
}

/**
 * Records the names the agent used in one turn (its text and its calls'
 * arguments): each known name counts once more and cites the turn. When the
 * list is over its bound, the name used least often goes, the least recent
 * first among equals, then by name — so the list depends only on the turns,
 * not on how they were batched.
 */
export function addNames(state: ExtractiveState, names: readonly string[], seq: number): void {
  for (const name of names) {
    const known = state.names.find((fact) => fact.name === name);
    if (known === undefined) state.names.push({ name, count: 1, seq });
    else if (known.seq !== seq) {
      known.count += 1;
      known.seq = seq;
    }
  }
  if (state.names.length <= LIMITS.names) return;
  state.names.sort((a, b) => b.count - a.count || b.seq - a.seq || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  state.names.length = LIMITS.names;
}
