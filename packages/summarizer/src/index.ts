export { createAnthropicSummarizer, DEFAULT_ANTHROPIC_BASE_URL } from "./anthropic-summarizer.js";
export { createOpenAISummarizer, DEFAULT_OPENAI_BASE_URL } from "./openai-summarizer.js";
export { resolveApiKey } from "./resolve-api-key.js";
export { DEFAULT_TIMEOUT_MS, defaultMaxOutputTokens } from "./summarizer-options.js";
export type { AnthropicSummarizerOptions } from "./anthropic-summarizer.js";
export type { OpenAISummarizerOptions } from "./openai-summarizer.js";
export type { VendorSummarizerOptions } from "./summarizer-options.js";

// Library-internal: the request builders and error translation, exported for tests and tools.
export { anthropicNoteRequest } from "./anthropic-note-request.js";
export { openAINoteRequest } from "./openai-note-request.js";
export { noteInstruction } from "./note-instruction.js";
export { appErrorFromVendor, codeForStatus, redact } from "./vendor-error.js";
export { PROGRESS_INTERVAL_MS } from "./call-vendor.js";
export type { AnthropicNoteRequest } from "./anthropic-note-request.js";
export type { OpenAINoteRequest } from "./openai-note-request.js";
export type { Vendor } from "./vendor-error.js";
export { createSummarizerFor, summarizerDefaults } from "./summarizer-for.js";
export type { SummarizerSettings } from "./summarizer-for.js";
export { summarizeWithFallback, isRetryable } from "./summarize-with-fallback.js";
export type { FallbackDraft } from "./summarize-with-fallback.js";
