import type { Turn, TurnToolResult } from "../turn.js";
import { pairTurns, type Pairing } from "./pair-turns.js";
import { EMPTY_CONTENT_TEXT, NO_OUTPUT_TEXT, hasText, isInlineImage, orphanResultText, partText, partsText, unansweredCallText } from "./part-text.js";

/** A part of a message's content in the Responses API. */
export type OpenAIResponsesContentPart =
  { type: "input_text"; text: string } | { type: "input_image"; image_url: string } | { type: "output_text"; text: string };

/** One item of a Responses API `input` array (vendor field names, so it is sent as it is). */
export type OpenAIResponsesInputItem =
  | { type: "message"; role: "user" | "assistant"; content: OpenAIResponsesContentPart[] }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: string };

/**
 * Renders turns as an OpenAI Responses API `input` array (the system prompt goes in the request's
 * `instructions`, not here): user text and images as a user message of `input_text`/`input_image`
 * parts; assistant text as an assistant message of `output_text`; each paired tool call as a
 * `function_call` item and its result as the `function_call_output` right after. The pairing is the
 * Chat Completions renderer's, so every call has its output and every output its call; a result
 * without its call becomes user text and an unanswered call assistant text, as there. Pure and
 * deterministic.
 */
export function renderOpenAIResponsesInput(turns: Turn[]): OpenAIResponsesInputItem[] {
  const pairing = pairTurns(turns);
  const items: OpenAIResponsesInputItem[] = [];
  for (const turn of turns) items.push(...(turn.role === "assistant" ? assistantItems(turn, pairing) : userItems(turn, pairing)));
  return items;
}

function assistantItems(turn: Turn, pairing: Pairing): OpenAIResponsesInputItem[] {
  const texts = [...turn.parts.map(partText), ...turn.toolCalls.filter((call) => !pairing.calls.has(call)).map(unansweredCallText)].filter(hasText);
  const calls = turn.toolCalls
    .filter((call) => pairing.calls.has(call))
    .map((call): OpenAIResponsesInputItem => ({
      type: "function_call",
      call_id: call.toolUseId,
      name: call.name,
      arguments: call.argsJson === "" ? "{}" : call.argsJson,
    }));
  const message: OpenAIResponsesInputItem[] =
    texts.length > 0 || calls.length === 0
      ? [{ type: "message", role: "assistant", content: [{ type: "output_text", text: texts.length > 0 ? texts.join("\n") : EMPTY_CONTENT_TEXT }] }]
      : [];
  return [...message, ...calls];
}

function userItems(turn: Turn, pairing: Pairing): OpenAIResponsesInputItem[] {
  const outputs = turn.toolResults.filter((result) => pairing.results.has(result)).map(outputItem);
  const texts = [
    ...turn.toolResults.filter((result) => !pairing.results.has(result)).map(orphanResultText),
    ...turn.parts.filter((part) => !isInlineImage(part)).map(partText),
  ].filter(hasText);
  const images = turn.parts.filter(isInlineImage);
  if (texts.length === 0 && images.length === 0 && outputs.length > 0) return outputs;
  const content: OpenAIResponsesContentPart[] = [
    ...(texts.length > 0 || images.length === 0 ? [{ type: "input_text" as const, text: texts.length > 0 ? texts.join("\n") : EMPTY_CONTENT_TEXT }] : []),
    ...images.map((image): OpenAIResponsesContentPart => ({ type: "input_image", image_url: `data:${image.mimeType};base64,${image.data}` })),
  ];
  return [...outputs, { type: "message", role: "user", content }];
}

function outputItem(result: TurnToolResult): OpenAIResponsesInputItem {
  const body = partsText(result.parts);
  const status = result.isError ? `[error${result.exitCode === undefined ? "" : ` exit ${String(result.exitCode)}`}]\n` : "";
  return { type: "function_call_output", call_id: result.toolUseId, output: `${status}${body === "" ? NO_OUTPUT_TEXT : body}` };
}
