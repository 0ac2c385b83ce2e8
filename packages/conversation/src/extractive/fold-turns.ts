import type { Turn, TurnToolCall, TurnToolResult } from "../turn.js";
import { callInfoOf } from "./call-info.js";
import { failureOf, judgementOf } from "./extract-errors.js";
import { decisionsOf, isNextStep, planOfArgs, sentencesOf, textOf } from "./extract-sentences.js";
import { jsonStrings } from "../json-strings.js";
import { addNames, namesOf } from "./extract-names.js";
import { emptyExtractiveState, LIMITS } from "./extractive-state.js";
import type { ExtractiveState } from "./extractive-state.js";
import { addCall, addDecision, addError, addFile, resolveErrors } from "./fold-facts.js";
import { clipText, leadingText, oneLine } from "./text-bounds.js";

/**
 * Folds turns into the extractive state, in order: the first user text
 * becomes the objective (unless an earlier note was carried over), later user
 * texts the latest requests; assistant text gives decisions, next steps and
 * the latest message, and with its calls' arguments the code names in play; tool calls give the files touched, the agent's plan
 * (TodoWrite, update_plan) and the recent calls; tool results give the errors
 * met and resolve earlier errors of the same call. Turns at or below the state's `lastSeq` are skipped, so folding
 * a redelivered batch again changes nothing.
 *
 * Pure and deterministic; `state` is not modified. The fold is a left fold
 * one turn at a time, so batching does not matter:
 * `foldTurns(foldTurns(s, a), b)` deep-equals `foldTurns(s, [...a, ...b])`.
 * The result is JSON data of bounded size (see `LIMITS`), whatever the number of turns.
 */
export function foldTurns(state: ExtractiveState | undefined, turns: readonly Turn[]): ExtractiveState {
  const next = state === undefined ? emptyExtractiveState() : structuredClone(state);
  // A state stored before names were kept has none.
  if (!Array.isArray(next.names)) next.names = [];
  for (const turn of turns) {
    if (turn.seq <= next.lastSeq) continue;
    foldTurn(next, turn);
    next.lastSeq = turn.seq;
  }
  return next;
}

function foldTurn(state: ExtractiveState, turn: Turn): void {
  const text = textOf(turn.parts);
  if (turn.role === "user" && text !== "") foldUserText(state, text, turn.seq);
  if (turn.role === "assistant") {
    // A call that got no result before the agent spoke again will get none.
    for (const call of state.calls) if (call.outcome === "pending") call.outcome = "lost";
    if (text !== "") foldAssistantText(state, text, turn.seq);
  }
  const callTexts = turn.toolCalls.map((call) => foldCall(state, call, turn.seq));
  if (turn.role === "assistant") addNames(state, namesOf([text, ...callTexts].join("\n")), turn.seq);
  for (const result of turn.toolResults) foldResult(state, result, turn.seq);
}

function foldUserText(state: ExtractiveState, text: string, seq: number): void {
  // After a carried-over note, the earlier note holds the task; later user texts are requests.
  if (state.objective === null && state.carried === null) {
    state.objective = { text: leadingText(text, LIMITS.objectiveChars), seqs: [seq] };
    return;
  }
  state.requests.push({ text: clipText(oneLine(text), LIMITS.requestChars), seq });
  if (state.requests.length > LIMITS.requests) state.requests.shift();
}

function foldAssistantText(state: ExtractiveState, text: string, seq: number): void {
  state.latest = { text: oneLine(leadingText(text, LIMITS.latestChars)), seq };
  const sentences = sentencesOf(text);
  for (const decision of decisionsOf(sentences)) addDecision(state, decision, seq);
  const steps = sentences.filter(isNextStep);
  if (steps.length > 0) state.nextSteps = steps.slice(0, LIMITS.nextSteps).map((step) => ({ text: step.text, seq }));
}

// Returns the call's argument text (its command, or the strings of its arguments), where the agent's code names are.
function foldCall(state: ExtractiveState, call: TurnToolCall, seq: number): string {
  const info = callInfoOf(call);
  // A shell script may have written files even when a later command in it failed; a file tool's failed call touched nothing.
  const shell = info.command !== "";
  if (shell) for (const touch of info.files) addFile(state, touch.path, touch.access, seq);
  const plan = planOfArgs(info.args);
  if (plan !== undefined) state.todos = plan.slice(0, LIMITS.todos).map((text) => ({ text, seq }));
  const files = shell ? [] : info.files.slice(0, LIMITS.callFiles);
  addCall(state, {
    toolUseId: call.toolUseId,
    summary: info.summary,
    key: info.key,
    judgement: judgementOf(info.command),
    files,
    seq,
    outcome: "pending",
    resultSeq: null,
  });
  return [info.command, ...jsonStrings(info.args)].join("\n");
}

function foldResult(state: ExtractiveState, result: TurnToolResult, seq: number): void {
  const call = state.calls.find((known) => known.toolUseId === result.toolUseId);
  // A result whose call was pushed out of the bounded list (or never seen) is judged by itself.
  const name = clipText(oneLine(result.toolName) || "tool", LIMITS.callChars);
  const line = failureOf(result, call?.judgement ?? "exit");
  if (call !== undefined) {
    call.outcome = line === undefined ? "ok" : "failed";
    call.resultSeq = seq;
    if (line === undefined) for (const touch of call.files) addFile(state, touch.path, touch.access, call.seq);
    call.files = [];
  }
  const key = call?.key ?? `${name} #${result.toolUseId}`;
  if (line === undefined) resolveErrors(state, key, seq);
  else addError(state, { key, call: call?.summary ?? name, line, resolvedSeq: null }, seq);
}
