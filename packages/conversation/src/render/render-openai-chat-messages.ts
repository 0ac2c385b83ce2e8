import type { Turn, TurnToolResult } from "../turn.js";
import type { OpenAIAssistantMessage, OpenAIChatMessage, OpenAIToolMessage, OpenAIUserContentPart } from "./openai-chat-message.js";
import { pairTurns, type Pairing } from "./pair-turns.js";
import { EMPTY_CONTENT_TEXT, NO_OUTPUT_TEXT, hasText, isInlineImage, orphanResultText, partText, partsText, unansweredCallText } from "./part-text.js";

/**
 * Renders turns as OpenAI Chat Completions `messages`: a system message first when `systemPrompt` is not
 * empty; an assistant turn as one assistant message (`content` null when it only calls tools); a user
 * turn's tool results as one `tool` message each, then one user message when it has text or images.
 * The vendor accepts a `tool` message only after the assistant message that made the call, with only
 * `tool` messages between, and an assistant's `tool_calls` only when all are answered that way; so a
 * result without its call there becomes user text `[tool result <id> from <toolName>]\n<text>`, and an
 * unanswered call assistant text `[tool call <id> <name>]\n<argsJson>`. Pure and deterministic.
 */
export function renderOpenAIChatMessages(turns: Turn[], systemPrompt: string): OpenAIChatMessage[] {
  const pairing = pairTurns(turns);
  const messages: OpenAIChatMessage[] = systemPrompt === "" ? [] : [{ role: "system", content: systemPrompt }];
  for (const turn of turns) {
    if (turn.role === "assistant") messages.push(assistantMessage(turn, pairing));
    else messages.push(...userMessages(turn, pairing));
  }
  return messages;
}

function assistantMessage(turn: Turn, pairing: Pairing): OpenAIAssistantMessage {
  const answered = turn.toolCalls.filter((call) => pairing.calls.has(call));
  const texts = [...turn.parts.map(partText), ...turn.toolCalls.filter((call) => !pairing.calls.has(call)).map(unansweredCallText)].filter(hasText);
  const content = texts.length > 0 ? texts.join("\n") : null;
  if (answered.length === 0) return { role: "assistant", content: content ?? EMPTY_CONTENT_TEXT };
  return {
    role: "assistant",
    content,
    tool_calls: answered.map((call) => ({
      id: call.toolUseId,
      type: "function",
      function: { name: call.name, arguments: call.argsJson === "" ? "{}" : call.argsJson },
    })),
  };
}

function userMessages(turn: Turn, pairing: Pairing): OpenAIChatMessage[] {
  const tools: OpenAIToolMessage[] = turn.toolResults.filter((result) => pairing.results.has(result)).map(toolMessage);
  const texts = [
    ...turn.toolResults.filter((result) => !pairing.results.has(result)).map(orphanResultText),
    ...turn.parts.filter((part) => !isInlineImage(part)).map(partText),
  ].filter(hasText);
  const images = turn.parts.filter(isInlineImage);
  if (images.length === 0) {
    // A turn that only carried tool results needs no user message; any other turn keeps its place.
    if (texts.length === 0 && tools.length > 0) return tools;
    return [...tools, { role: "user", content: texts.length > 0 ? texts.join("\n") : EMPTY_CONTENT_TEXT }];
  }
  const parts: OpenAIUserContentPart[] = [
    ...texts.map((value): OpenAIUserContentPart => ({ type: "text", text: value })),
    ...images.map((image): OpenAIUserContentPart => ({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } })),
  ];
  return [...tools, { role: "user", content: parts }];
}

function toolMessage(result: TurnToolResult): OpenAIToolMessage {
  const body = partsText(result.parts);
  const status = result.isError ? `[error${result.exitCode === undefined ? "" : ` exit ${String(result.exitCode)}`}]\n` : "";
  return { role: "tool", tool_call_id: result.toolUseId, content: `${status}${body === "" ? NO_OUTPUT_TEXT : body}` };
}
