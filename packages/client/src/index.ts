/**
 * @loupe/client: the TypeScript SDK of Loupe. `createLoupeClient` gives typed
 * calls with deadlines and retries on `unavailable`; the vendor helpers put a
 * projection into Anthropic or OpenAI messages, keeping ids, `is_error` and the
 * tool-exchange order.
 *
 * @packageDocumentation
 */

// The client.
export { createLoupeClient } from "./loupe-client.js";
export { channelCredentials, loupeClientOptionsFromEnv, DEFAULT_ADDRESS, DEFAULT_TIMEOUT_MS } from "./connection-options.js";
export { DEFAULT_RETRIES, DEFAULT_RETRY_DELAY_MS, DEFAULT_MAX_RETRY_DELAY_MS } from "./call-with-retries.js";
export type { LoupeClient, LoupeCallOptions, LoupeCall } from "./loupe-client.js";
export type { LoupeClientOptions } from "./connection-options.js";
export type { ConversationCalls } from "./conversation-calls.js";
export type { RecoverInput } from "./recover-all.js";

// Vendor-message helpers (pure, no network).
export { toolResultFromAnthropic, partsFromAnthropicContent } from "./tool-result-from-anthropic.js";
export { toolResultFromOpenAi } from "./tool-result-from-open-ai.js";
export { applyProjectionToAnthropic } from "./apply-projection-to-anthropic.js";
export { applyProjectionToOpenAiChat } from "./apply-projection-to-open-ai-chat.js";
export { projectAnthropicMessages } from "./project-anthropic-messages.js";
export { callText, composeIntent, earlierMessage, MAX_EARLIER_BYTES, MAX_EARLIER_MESSAGES, MAX_INTENT_BYTES } from "./intent/compose-intent.js";
export { intentFromAnthropicMessages } from "./intent/intent-from-anthropic-messages.js";
export { intentFromClaudeTranscript, messagesFromClaudeTranscript, modelFromClaudeTranscript } from "./intent/intent-from-claude-transcript.js";
export type { ToolResultFromOpenAiOptions } from "./tool-result-from-open-ai.js";
export type { ProjectAnthropicMessagesOptions, ProjectedAnthropicMessages, ProjectCaller } from "./project-anthropic-messages.js";
export type {
  AnthropicMessage,
  AnthropicContentBlock,
  AnthropicTextBlock,
  AnthropicImageBlock,
  AnthropicDocumentBlock,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicOtherBlock,
} from "@loupe/conversation";
export type { OpenAiToolCall, OpenAiToolMessage, OpenAiTextPart } from "./open-ai-types.js";

// Library-internal: building blocks other Loupe packages (the hook, the MCP server) reuse.
export { callWithRetries, retryDelayFor } from "./call-with-retries.js";
export { recoverAll, recoverRequestFrom, textOfParts, MAX_RECOVER_PAGES } from "./recover-all.js";
export { mediaNotice } from "./view-blocks.js";
export type { RetryPolicy, CallWithRetriesOptions } from "./call-with-retries.js";
