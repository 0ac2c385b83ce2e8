import type { NoteDraft, NoteUpdateInput, SummarizeOptions, Summarizer } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import OpenAI from "openai";
import { callVendor } from "./call-vendor.js";
import { withGenAiSpan } from "./gen-ai-span.js";
import { openAINoteRequest } from "./openai-note-request.js";
import { DEFAULT_TIMEOUT_MS, checkInput, checkOptions, defaultMaxOutputTokens, type VendorSummarizerOptions } from "./summarizer-options.js";

/** Options of {@link createOpenAISummarizer}; `baseURL` includes the version path (`…/v1`). */
export type OpenAISummarizerOptions = VendorSummarizerOptions;

/** The OpenAI API's public endpoint. */
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * A summarizer (name `openai`) for OpenAI and OpenAI-compatible servers, through Chat Completions. The
 * request forks the session (system prompt, turns, tools as given) so the vendor's automatic prefix
 * cache serves what an earlier update already sent; the instruction is the final user message. The
 * SDK does not retry (Loupe retries). Errors are AppErrors (see `appErrorFromVendor`); an answer
 * without text is `unavailable`. The draft's `state` is always "".
 */
export function createOpenAISummarizer(options: OpenAISummarizerOptions): Summarizer {
  checkOptions("openai", options);
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? DEFAULT_OPENAI_BASE_URL,
    maxRetries: 0,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    organization: null,
    project: null,
  });
  return {
    name: "openai",
    async summarize(input: NoteUpdateInput, summarizeOptions: SummarizeOptions = {}): Promise<NoteDraft> {
      checkInput(input);
      const maxTokens = options.maxOutputTokens ?? defaultMaxOutputTokens(input);
      const body = openAINoteRequest(input, options.model, maxTokens);
      return withGenAiSpan("openai", options.model, maxTokens, async () => {
        const completion = await callVendor("openai", options.apiKey, summarizeOptions, (signal) =>
          // The body is built from the vendor's documented shapes; the SDK's unions are narrower than our plain types.
          client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, signal === undefined ? {} : { signal }),
        );
        const choice = completion.choices[0];
        const text = (choice?.message.content ?? "").trim();
        if (text === "")
          throw new AppError("unavailable", `openai answered without text [model=${options.model}, finish_reason=${String(choice?.finish_reason)}]`);
        const draft: NoteDraft = { text, state: "" };
        if (completion.usage !== undefined) {
          draft.inputTokens = completion.usage.prompt_tokens;
          draft.cachedInputTokens = completion.usage.prompt_tokens_details?.cached_tokens ?? 0;
        }
        return {
          value: draft,
          usage: {
            responseModel: completion.model,
            ...(completion.usage === undefined
              ? {}
              : {
                  inputTokens: completion.usage.prompt_tokens,
                  outputTokens: completion.usage.completion_tokens,
                  cachedInputTokens: draft.cachedInputTokens ?? 0,
                }),
            ...(choice?.finish_reason == null ? {} : { finishReason: choice.finish_reason }),
          },
        };
      });
    },
  };
}
