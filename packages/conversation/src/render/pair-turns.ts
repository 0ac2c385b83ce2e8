import type { Turn, TurnToolCall, TurnToolResult } from "../turn.js";
import { hasText, isInlineImage, partText } from "./part-text.js";

/** Which results answer a call right before them, and which calls are answered. */
export interface Pairing {
  results: Set<TurnToolResult>;
  calls: Set<TurnToolCall>;
}

/**
 * Pairs tool calls with their results the way the OpenAI APIs accept them: a result answers a call of
 * the last assistant turn while only result-carrying user turns have followed it; a user turn with other
 * content closes the exchange. Calls and results left unpaired are rendered as text by the renderers.
 */
export function pairTurns(turns: readonly Turn[]): Pairing {
  const pairing: Pairing = { results: new Set(), calls: new Set() };
  const seenIds = new Set<string>();
  // The calls of the last assistant message while only tool messages have followed it.
  let open = new Map<string, TurnToolCall>();
  for (const turn of turns) {
    if (turn.role === "assistant") {
      open = new Map();
      for (const call of turn.toolCalls) {
        if (!seenIds.has(call.toolUseId)) open.set(call.toolUseId, call);
        seenIds.add(call.toolUseId);
      }
      continue;
    }
    let paired = 0;
    for (const result of turn.toolResults) {
      const call = open.get(result.toolUseId);
      if (call === undefined) continue;
      open.delete(result.toolUseId);
      pairing.results.add(result);
      pairing.calls.add(call);
      paired += 1;
    }
    // A user message closes the exchange: a result after it no longer follows its call.
    if (paired === 0 || hasUserContent(turn, pairing)) open = new Map();
  }
  return pairing;
}

function hasUserContent(turn: Turn, pairing: Pairing): boolean {
  return turn.toolResults.some((result) => !pairing.results.has(result)) || turn.parts.some((part) => isInlineImage(part) || hasText(partText(part)));
}
