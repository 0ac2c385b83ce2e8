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
  content?: string | ReadonlyArray<AnthropicTextBlock | AnthropicImageBlock | AnthropicOtherBlock>;
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
