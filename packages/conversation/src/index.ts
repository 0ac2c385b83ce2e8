export { turnAddress, parseTurnAddress, contiguousAfter } from "./turn.js";
export type { Turn, TurnPart, TurnRole, TurnToolCall, TurnToolResult } from "./turn.js";
export type { NoteRecord, NoteUpdateInput, NoteDraft, SummarizeOptions, Summarizer } from "./summarizer.js";
export { renderAnthropicMessages } from "./render/render-anthropic-messages.js";
export { renderOpenAIChatMessages } from "./render/render-openai-chat-messages.js";
export { renderTurnText } from "./render/render-turn-text.js";
export type {
  AnthropicMessage,
  AnthropicContentBlock,
  AnthropicTextBlock,
  AnthropicImageBlock,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicCacheControl,
} from "./render/anthropic-message.js";
export type { OpenAIChatMessage, OpenAISystemMessage, OpenAIUserMessage, OpenAIAssistantMessage, OpenAIToolMessage, OpenAIToolCall, OpenAIUserContentPart } from "./render/openai-chat-message.js";
export { planCompaction, COMPACT_SAFETY_MARGIN, FALLBACK_NOTE_SHARE, MAX_FALLBACK_NOTE_TOKENS } from "./compact/plan-compaction.js";
export type { CompactionInput, CompactionPlan } from "./compact/plan-compaction.js";
export { encodeTurnJson, decodeTurnJson } from "./turn-json.js";
export { readTurnPages, TURN_PAGE_BYTES } from "./read-turn-pages.js";
export { jsonStrings } from "./json-strings.js";
export type { LogRead, TurnPage, TurnPageRequest } from "./read-turn-pages.js";
export { createExtractiveSummarizer } from "./extractive/extractive-summarizer.js";
export { foldTurns } from "./extractive/fold-turns.js";
export { renderNote } from "./extractive/render-note.js";
export { emptyExtractiveState, isExtractiveState } from "./extractive/extractive-state.js";
export type { ExtractiveSummarizerOptions } from "./extractive/extractive-summarizer.js";
export type { ExtractiveState, FileAccess, FileFact, ErrorFact, CallFact, SentenceFact, PlanItem } from "./extractive/extractive-state.js";
