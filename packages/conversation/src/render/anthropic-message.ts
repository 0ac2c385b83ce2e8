/**
 * The Anthropic Messages API request shapes the renderer produces: the subset of content blocks a
 * conversation history needs. Field names are the vendor's (snake_case), so a message is sent as is.
 */

/** Marks the end of a prefix the vendor should cache. */
export interface AnthropicCacheControl {
  type: "ephemeral";
}

/** A text block; never blank (the vendor rejects blank text). */
export interface AnthropicTextBlock {
  type: "text";
  text: string;
  cache_control?: AnthropicCacheControl;
}

/** An inline base64 image (jpeg, png, gif or webp). */
export interface AnthropicImageBlock {
  type: "image";
  source: { type: "base64"; media_type: string; data: string };
  cache_control?: AnthropicCacheControl;
}

/** A tool call in an assistant message. */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  /** The call's arguments; `{}` when the turn's `argsJson` is empty or not a JSON object. */
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

/** A tool result in a user message, answering a `tool_use` of the assistant message right before it. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: Array<AnthropicTextBlock | AnthropicImageBlock>;
  /** Present (true) only for failed calls. */
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

/** Any block the renderer emits. */
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;

/** One message of a Messages API request; `content` is never empty. */
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: AnthropicContentBlock[];
}
