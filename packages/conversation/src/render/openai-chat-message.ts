/**
 * The OpenAI Chat Completions request shapes the renderer produces. Field names are the vendor's
 * (snake_case), so a message is sent as is to OpenAI and OpenAI-compatible servers.
 */

/** A part of a user message that carries an image. */
export type OpenAIUserContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

/** A tool call in an assistant message. */
export interface OpenAIToolCall {
  id: string;
  type: "function";
  /** `arguments` is JSON text (`{}` when the turn had none). */
  function: { name: string; arguments: string };
}

/** The system prompt. */
export interface OpenAISystemMessage {
  role: "system";
  content: string;
}

/** User text; an array of parts only when the turn carries inline images. */
export interface OpenAIUserMessage {
  role: "user";
  content: string | OpenAIUserContentPart[];
}

/** Assistant text (null when the message only calls tools) and its tool calls (absent when none). */
export interface OpenAIAssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: OpenAIToolCall[];
}

/** A tool result, right after the assistant message that made the call (only tool messages between). */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** One message of a Chat Completions request. */
export type OpenAIChatMessage = OpenAISystemMessage | OpenAIUserMessage | OpenAIAssistantMessage | OpenAIToolMessage;
