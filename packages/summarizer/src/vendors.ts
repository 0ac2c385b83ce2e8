// The vendors' summarizers and their SDKs (`@loupe/summarizer/vendors`), apart from the package's
// index so that a process loads the SDKs only when it asks a vendor for a note.
export { createAnthropicSummarizer, DEFAULT_ANTHROPIC_BASE_URL } from "./anthropic-summarizer.js";
export { createOpenAISummarizer, DEFAULT_OPENAI_BASE_URL } from "./openai-summarizer.js";
export type { AnthropicSummarizerOptions } from "./anthropic-summarizer.js";
export type { OpenAISummarizerOptions } from "./openai-summarizer.js";
