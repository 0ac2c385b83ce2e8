import { renderAnthropicMessages, renderOpenAIChatMessages, renderOpenAIResponsesInput, type Turn } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import { HistoryFormat } from "@loupe/proto";

/**
 * The compacted context as the vendor's request body fields: Anthropic `{system, tools, messages}`,
 * OpenAI Chat `{messages, tools}` (the system prompt as the first message), OpenAI Responses
 * `{instructions, tools, input}`.
 */
export function assembleContext(format: HistoryFormat, systemPrompt: string, toolsJson: string, turns: Turn[]): Uint8Array {
  const tools = parseTools(toolsJson);
  if (format === HistoryFormat.ANTHROPIC) {
    const body = {
      ...(systemPrompt === "" ? {} : { system: systemPrompt }),
      ...(tools === undefined ? {} : { tools }),
      messages: renderAnthropicMessages(turns),
    };
    return new TextEncoder().encode(JSON.stringify(body));
  }
  if (format === HistoryFormat.OPENAI_RESPONSES) {
    const body = {
      ...(systemPrompt === "" ? {} : { instructions: systemPrompt }),
      ...(tools === undefined ? {} : { tools }),
      input: renderOpenAIResponsesInput(turns),
    };
    return new TextEncoder().encode(JSON.stringify(body));
  }
  const body = { messages: renderOpenAIChatMessages(turns, systemPrompt), ...(tools === undefined ? {} : { tools }) };
  return new TextEncoder().encode(JSON.stringify(body));
}

/** @throws AppError for a format Compact does not assemble */
export function checkCompactFormat(format: HistoryFormat): void {
  if (format === HistoryFormat.ANTHROPIC || format === HistoryFormat.OPENAI_CHAT || format === HistoryFormat.OPENAI_RESPONSES) return;
  throw new AppError("invalid_argument", "format is required (anthropic, openai-chat or openai-responses)");
}

function parseTools(toolsJson: string): unknown {
  if (toolsJson === "") return undefined;
  try {
    return JSON.parse(toolsJson) as unknown;
  } catch {
    return undefined;
  }
}
