import Anthropic from "@anthropic-ai/sdk";
import type { NoteDraft, NoteUpdateInput, SummarizeOptions, Summarizer } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import { anthropicNoteRequest } from "./anthropic-note-request.js";
import { callVendor } from "./call-vendor.js";
import { withGenAiSpan } from "./gen-ai-span.js";
import { DEFAULT_TIMEOUT_MS, checkInput, checkOptions, defaultMaxOutputTokens, type VendorSummarizerOptions } from "./summarizer-options.js";

/** Options of {@link createAnthropicSummarizer}. */
export type AnthropicSummarizerOptions = VendorSummarizerOptions;

/** The Anthropic API's public endpoint. */
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/**
 * A summarizer (name `anthropic`) that asks a Claude model, through the Messages API, to fold the new
 * turns into the note. The request forks the session: its system prompt, tools and turns come first,
 * with cache breakpoints, so the vendor's prompt cache serves what an earlier update already sent.
 * The SDK does not retry (Loupe retries). Errors are AppErrors (see `appErrorFromVendor`); an answer
 * without text is `unavailable`. The draft's `state` is always "".
 */
export function createAnthropicSummarizer(options: AnthropicSummarizerOptions): Summarizer {
  checkOptions("anthropic", options);
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL,
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  return {
    name: "anthropic",
    async summarize(input: NoteUpdateInput, summarizeOptions: SummarizeOptions = {}): Promise<NoteDraft> {
      checkInput(input);
      const maxTokens = options.maxOutputTokens ?? defaultMaxOutputTokens(input);
      const body = anthropicNoteRequest(input, options.model, maxTokens);
      return withGenAiSpan("anthropic", options.model, maxTokens, async () => {
        const message = await callVendor("anthropic", options.apiKey, summarizeOptions, (signal) =>
          // The body is built from the vendor's documented shapes; the SDK's unions are narrower than our plain types.
          client.messages.create(body as unknown as Anthropic.MessageCreateParamsNonStreaming, signal === undefined ? {} : { signal }),
        );
        const text = message.content
          .flatMap((block) => (block.type === "text" ? [block.text] : []))
          .join("")
          .trim();
        if (text === "")
          throw new AppError("unavailable", `anthropic answered without text [model=${options.model}, stop_reason=${String(message.stop_reason)}]`);
        const cached = message.usage.cache_read_input_tokens ?? 0;
        const inputTokens = message.usage.input_tokens + cached + (message.usage.cache_creation_input_tokens ?? 0);
        return {
          value: { text, state: "", inputTokens, cachedInputTokens: cached },
          usage: {
            responseModel: message.model,
            inputTokens,
            outputTokens: message.usage.output_tokens,
            cachedInputTokens: cached,
            ...(message.stop_reason === null ? {} : { finishReason: message.stop_reason }),
          },
        };
      });
    },
  };
}
