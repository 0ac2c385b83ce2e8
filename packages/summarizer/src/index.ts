export { createAnthropicSummarizer, DEFAULT_ANTHROPIC_BASE_URL } from "./anthropic-summarizer.js";
export { createOpenAISummarizer, DEFAULT_OPENAI_BASE_URL } from "./openai-summarizer.js";
export { resolveApiKey } from "./resolve-api-key.js";
export { DEFAULT_TIMEOUT_MS, defaultMaxOutputTokens } from "./summarizer-options.js";
export type { AnthropicSummarizerOptions } from "./anthropic-summarizer.js";
export type { OpenAISummarizerOptions } from "./openai-summarizer.js";
export type { VendorSummarizerOptions } from "./summarizer-options.js";

// Library-internal: the request builders and error translation, exported for tests and tools.

export type { Vendor } from "./vendor-error.js";
export { createSummarizerFor, summarizerDefaults } from "./summarizer-for.js";
export type { SummarizerSettings } from "./summarizer-for.js";
export { summarizeWithFallback } from "./summarize-with-fallback.js";
