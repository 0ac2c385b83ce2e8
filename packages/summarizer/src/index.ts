// The vendors' summarizers and their SDKs are not exported: `createSummarizerFor` loads them with a
// source's first vendor note.
export { resolveApiKey } from "./resolve-api-key.js";
export { DEFAULT_TIMEOUT_MS, defaultMaxOutputTokens } from "./summarizer-options.js";
export type { VendorSummarizerOptions } from "./summarizer-options.js";

// Library-internal: the request builders and error translation, exported for tests and tools.

export type { Vendor } from "./vendor-error.js";
export { createSummarizerFor, summarizerDefaults } from "./summarizer-for.js";
export type { SummarizerSettings } from "./summarizer-for.js";
export { summarizeWithFallback } from "./summarize-with-fallback.js";
