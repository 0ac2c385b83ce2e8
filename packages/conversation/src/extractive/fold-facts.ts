import type { CallFact, ErrorFact, ExtractiveState, FileAccess } from "./extractive-state.js";
import { LIMITS } from "./extractive-state.js";
import { sameTextKey, withSeq } from "./text-bounds.js";

// A decision contained in a longer one is the same statement only when it says enough on its own.
const MIN_CONTAINED_CHARS = 30;

/*
 * Each helper applies one fact to a state in place and keeps its list within
 * bounds. Which entry goes when a list is full depends only on the list, so
 * the result of a sequence of facts does not depend on how it was batched.
 */

/**
 * Records a decision. A sentence said again (or one that contains an earlier
 * one, or is contained in it) replaces it at the end, citing both turns.
 */
export function addDecision(state: ExtractiveState, text: string, seq: number): void {
  const key = sameTextKey(text);
  const index = state.decisions.findIndex((decision) => sameStatement(sameTextKey(decision.text), key));
  const seqs = index === -1 ? [seq] : withSeq(state.decisions[index]?.seqs ?? [], seq, LIMITS.decisionSeqs);
  if (index !== -1) state.decisions.splice(index, 1);
  state.decisions.push({ text, seqs });
  if (state.decisions.length > LIMITS.decisions) state.decisions.shift();
}

function sameStatement(left: string, right: string): boolean {
  if (left === right) return true;
  const [shorter, longer] = left.length < right.length ? [left, right] : [right, left];
  return shorter.length >= MIN_CONTAINED_CHARS && longer.includes(shorter);
}

/**
 * Records a file touch and moves the file to the front. Creating a file the
 * state already knows is an overwrite: it counts as an edit. When the list is
 * full, the least recent file that was only read goes first.
 */
export function addFile(state: ExtractiveState, path: string, access: FileAccess, seq: number): void {
  const index = state.files.findIndex((file) => file.path === path);
  const known = index === -1 ? undefined : state.files[index];
  const kind: FileAccess = known !== undefined && access === "created" ? "edited" : access;
  const entry = known ?? { path, access: [] };
  const seen = entry.access.find((access) => access.kind === kind);
  if (seen === undefined) entry.access.push({ kind, seqs: [seq] });
  else seen.seqs = withSeq(seen.seqs, seq, LIMITS.fileSeqs);
  if (index !== -1) state.files.splice(index, 1);
  state.files.unshift(entry);
  if (state.files.length <= LIMITS.files) return;
  let drop = state.files.length - 1;
  for (let candidate = state.files.length - 1; candidate >= 0; candidate--) {
    if (state.files[candidate]?.access.every((seen) => seen.kind === "read" || seen.kind === "used")) {
      drop = candidate;
      break;
    }
  }
  state.files.splice(drop, 1);
}

/**
 * Records a failed call. An earlier error with the same line (from the same
 * call, or any call when the line says more than "exit N (no output)") is
 * merged into it: one entry citing the latest turns, open again. When the list
 * is full, the oldest resolved error goes first, else the oldest.
 */
export function addError(state: ExtractiveState, error: Omit<ErrorFact, "seqs">, seq: number): void {
  const generic = /\(no output\)$/.test(error.line);
  const same = (known: ErrorFact): boolean => known.line === error.line && (known.key === error.key || !generic);
  const seqs = state.errors.filter(same).reduce((merged, known) => known.seqs.reduce((all, old) => withSeq(all, old, LIMITS.errorSeqs), merged), [seq]);
  state.errors = state.errors.filter((known) => !same(known));
  state.errors.push({ ...error, seqs: withSeq(seqs, seq, LIMITS.errorSeqs) });
  if (state.errors.length <= LIMITS.errors) return;
  const resolved = state.errors.findIndex((known) => known.resolvedSeq !== null);
  state.errors.splice(resolved === -1 ? 0 : resolved, 1);
}

/** Marks the open errors of the call with `key` resolved by its success at `seq`. */
export function resolveErrors(state: ExtractiveState, key: string, seq: number): void {
  for (const error of state.errors) if (error.key === key && error.resolvedSeq === null) error.resolvedSeq = seq;
}

/** Records a new call; when the list is full the oldest answered call goes first, else the oldest. */
export function addCall(state: ExtractiveState, call: CallFact): void {
  state.calls = state.calls.filter((known) => known.toolUseId !== call.toolUseId);
  state.calls.push(call);
  if (state.calls.length <= LIMITS.calls) return;
  const answered = state.calls.findIndex((known) => known.outcome !== "pending");
  state.calls.splice(answered === -1 ? 0 : answered, 1);
}
