import type { PromptCacheUsage } from "./prompt-cache.js";
import { estimateTokens } from "./prompt-cache.js";

/** Which API a request used: Anthropic Messages, OpenAI Chat Completions, OpenAI Responses. */
export type VendorApi = "anthropic" | "openai" | "openai-responses";

/** A request to one of the two model APIs, as the reply function sees it. */
export interface VendorApiRequest {
  api: VendorApi;
  /** The parsed JSON body. */
  body: unknown;
  /** The body as text. */
  text: string;
}

const ANTHROPIC_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

const OPENAI_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  403: "permission_error",
  404: "invalid_request_error",
  429: "rate_limit_exceeded",
};

/** An error body in the vendor's shape. */
export function errorBody(api: VendorApi, status: number, message: string): string {
  if (api === "anthropic") return JSON.stringify({ type: "error", error: { type: ANTHROPIC_ERROR_TYPES[status] ?? "api_error", message } });
  return JSON.stringify({ error: { message, type: OPENAI_ERROR_TYPES[status] ?? "server_error", param: null, code: null } });
}

/** The default answer: a short handover note naming the last `turn:<seq>` address in the request. */
export function defaultReplyText(request: VendorApiRequest): string {
  let last = 0;
  for (const match of request.text.matchAll(/turn:([1-9][0-9]*)/g)) last = Math.max(last, Number(match[1]));
  const through = last > 0 ? `turn:${String(last)}` : "the start";
  return `# Handover note\n\nObjective: carry on with the session.\nCovered through ${through}.\nNext steps: continue after ${through}.`;
}

/** A successful, non-streamed answer in the vendor's shape, with usage from the simulated cache. */
export function answerBody(api: VendorApi, id: number, model: string, text: string, usage: PromptCacheUsage): string {
  const outputTokens = estimateTokens(Buffer.byteLength(text));
  if (api === "anthropic") {
    return JSON.stringify({
      id: `msg_${String(id)}`,
      type: "message",
      role: "assistant",
      model,
      content: text === "" ? [] : [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      // Anthropic's input_tokens excludes the tokens read from (or written to) the cache.
      usage: {
        input_tokens: usage.inputTokens - usage.cachedTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage.cachedTokens,
        output_tokens: outputTokens,
      },
    });
  }
  if (api === "openai-responses") {
    return JSON.stringify({
      id: `resp_${String(id)}`,
      object: "response",
      status: "completed",
      model,
      output: [{ type: "message", id: `msg_${String(id)}`, status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] }],
      usage: {
        input_tokens: usage.inputTokens,
        input_tokens_details: { cached_tokens: usage.cachedTokens },
        output_tokens: outputTokens,
        total_tokens: usage.inputTokens + outputTokens,
      },
    });
  }
  return JSON.stringify({
    id: `chatcmpl-${String(id)}`,
    object: "chat.completion",
    created: 1_700_000_000 + id,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: {
      prompt_tokens: usage.inputTokens,
      completion_tokens: outputTokens,
      total_tokens: usage.inputTokens + outputTokens,
      prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    },
  });
}
