export { turnAddress, parseTurnAddress, contiguousAfter } from "./turn.js";
export type { Turn, TurnPart, TurnRole, TurnToolCall, TurnToolResult } from "./turn.js";
export type { NoteRecord, NoteUpdateInput, NoteDraft, SavedResult, SummarizeOptions, Summarizer } from "./summarizer.js";
export { renderAnthropicMessages } from "./render/render-anthropic-messages.js";
export { renderOpenAIChatMessages } from "./render/render-openai-chat-messages.js";
export { renderOpenAIResponsesInput } from "./render/render-openai-responses-input.js";
export { renderTurnText } from "./render/render-turn-text.js";
export type {
  AnthropicMessage,
  AnthropicContentBlock,
  AnthropicTextBlock,
  AnthropicImageBlock,
  AnthropicDocumentBlock,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicOtherBlock,
  RenderedAnthropicBlock,
  RenderedAnthropicMessage,
} from "./render/anthropic-message.js";
export type {
  OpenAIChatMessage,
  OpenAISystemMessage,
  OpenAIUserMessage,
  OpenAIAssistantMessage,
  OpenAIToolMessage,
  OpenAIToolCall,
  OpenAIUserContentPart,
} from "./render/openai-chat-message.js";
export { planCompaction } from "./compact/plan-compaction.js";
export type { CompactionInput, CompactionPlan } from "./compact/plan-compaction.js";
export { encodeTurnJson } from "./turn-json.js";
export { readTurnPages } from "./read-turn-pages.js";
export { jsonStrings } from "./json-strings.js";
export type { LogRead, TurnPage, TurnPageRequest } from "./read-turn-pages.js";
export { createExtractiveSummarizer } from "./extractive/extractive-summarizer.js";

export type { ExtractiveSummarizerOptions } from "./extractive/extractive-summarizer.js";
export type { ExtractiveState } from "./extractive/extractive-state.js";
export type { OpenAIResponsesInputItem, OpenAIResponsesContentPart } from "./render/render-openai-responses-input.js";
