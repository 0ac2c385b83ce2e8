import type { SavedResult } from "../summarizer.js";
import type { Turn } from "../turn.js";
import { LIMITS, type ExtractiveState, type ResultFact } from "./extractive-state.js";

/**
 * Adds to the state the saved results of the tool calls `turns` answer (matched by `toolUseId`), the
 * newest last; a result already cited moves to its latest turn. Keeps the latest LIMITS.results.
 * Pure: returns a new state.
 */
export function foldSavedResults(state: ExtractiveState, turns: readonly Turn[], saved: readonly SavedResult[] | undefined): ExtractiveState {
  if (saved === undefined || saved.length === 0) return state;
  const byCall = new Map(saved.map((result) => [result.toolUseId, result]));
  let results: ResultFact[] = [...(state.results ?? [])];
  for (const turn of turns) {
    for (const { toolUseId } of turn.toolResults) {
      const result = byCall.get(toolUseId);
      if (result === undefined || toolUseId === "") continue;
      const { resultId, toolName, kind, path, originalTokens } = result;
      results = [...results.filter((fact) => fact.resultId !== resultId), { resultId, toolName, kind, path, originalTokens, seq: turn.seq }];
    }
  }
  return { ...state, results: results.slice(-LIMITS.results) };
}
