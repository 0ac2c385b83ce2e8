import { SpanKind, withSpan } from "@loupe/telemetry/spans";

/** What a vendor answered, for the span. */
export interface GenAiUsage {
  responseModel?: string;
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  finishReason?: string;
}

/**
 * Runs one note request to a model vendor in a client span after the OpenTelemetry GenAI conventions:
 * named `chat <model>`, with `gen_ai.operation.name`, `gen_ai.system`, `gen_ai.request.model`,
 * `gen_ai.request.max_tokens`, and from the answer `gen_ai.response.model`, the token usage and the
 * finish reason. Never the prompt or the note (they hold the session's content).
 */
export async function withGenAiSpan<T>(
  system: "anthropic" | "openai",
  model: string,
  maxTokens: number,
  call: () => Promise<{ value: T; usage: GenAiUsage }>,
): Promise<T> {
  return withSpan(
    `chat ${model}`,
    { "gen_ai.operation.name": "chat", "gen_ai.system": system, "gen_ai.request.model": model, "gen_ai.request.max_tokens": maxTokens },
    async (span) => {
      const { value, usage } = await call();
      if (usage.responseModel !== undefined) span.setAttribute("gen_ai.response.model", usage.responseModel);
      if (usage.inputTokens !== undefined) span.setAttribute("gen_ai.usage.input_tokens", usage.inputTokens);
      if (usage.outputTokens !== undefined) span.setAttribute("gen_ai.usage.output_tokens", usage.outputTokens);
      if (usage.cachedInputTokens !== undefined) span.setAttribute("gen_ai.usage.cache_read.input_tokens", usage.cachedInputTokens);
      if (usage.finishReason !== undefined) span.setAttribute("gen_ai.response.finish_reasons", [usage.finishReason]);
      return value;
    },
    SpanKind.CLIENT,
  );
}
