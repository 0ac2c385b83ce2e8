/** An OpenAI Chat Completions tool call from an assistant message. */
export interface OpenAiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A text part of an OpenAI chat message. */
export interface OpenAiTextPart {
  type: "text";
  text: string;
}

/** An OpenAI Chat Completions `role: "tool"` message. */
export interface OpenAiToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string | readonly OpenAiTextPart[];
  [field: string]: unknown;
}
