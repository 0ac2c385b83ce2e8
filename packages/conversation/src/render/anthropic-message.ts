/**
 * The Anthropic Messages API shapes Loupe reads and writes — one family for the renderer of compacted
 * contexts and for the SDK helpers that project a runtime's messages. Field names are the vendor's
 * (snake_case), so a message is sent as it is; blocks keep any other field (e.g. `cache_control`).
 */

/** An Anthropic `text` content block (other fields, such as `cache_control`, are kept as they are). */
export interface AnthropicTextBlock {
  type: "text";
  text: string;
  [field: string]: unknown;
}

/** An Anthropic `image` content block with a base64 or url source. */
export interface AnthropicImageBlock {
  type: "image";
  source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
  [field: string]: unknown;
}

/** An Anthropic `document` content block: a PDF (base64) or plain text, as a tool result may carry. */
export interface AnthropicDocumentBlock {
  type: "document";
  source: { type: "base64"; media_type: "application/pdf"; data: string } | { type: "text"; media_type: "text/plain"; data: string };
  title?: string;
  [field: string]: unknown;
}

/** An Anthropic `tool_use` block from an assistant message. */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
  [field: string]: unknown;
}

/** An Anthropic `tool_result` block from a user message. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content?: string | ReadonlyArray<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock | AnthropicOtherBlock>;
  is_error?: boolean;
  [field: string]: unknown;
}

/** Any other Anthropic content block, passed through untouched. */
export interface AnthropicOtherBlock {
  type: string;
  [field: string]: unknown;
}

/** An Anthropic content block as the helpers see it. */
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolUseBlock | AnthropicToolResultBlock | AnthropicOtherBlock;

/** One message of an Anthropic Messages API `messages` array. */
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | readonly AnthropicContentBlock[];
  [field: string]: unknown;
}

/** The blocks Loupe's renderer writes (never another kind). */
export type RenderedAnthropicBlock =
  AnthropicTextBlock | AnthropicImageBlock | AnthropicToolUseBlock | (AnthropicToolResultBlock & { content: Array<AnthropicTextBlock | AnthropicImageBlock> });

/** A message as Loupe's renderer writes it: its content always a non-empty array of blocks. */
export interface RenderedAnthropicMessage extends AnthropicMessage {
  content: RenderedAnthropicBlock[];
}
