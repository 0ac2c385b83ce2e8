import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { ToolResultSchema } from "@loupe/proto";
import type { OpenAiToolCall, OpenAiToolMessage } from "./open-ai-types.js";

/** Options of {@link toolResultFromOpenAi}. */
export interface ToolResultFromOpenAiOptions {
  /** Chat tool messages carry no error flag: set it when the runtime knows the call failed; default false. */
  isError?: boolean;
}

/**
 * Builds the ToolResult init for Project from an OpenAI Chat Completions tool
 * call and its `role: "tool"` message: tool_use_id (the tool_call_id),
 * tool_name, args_json (the call's arguments string as it is) and one text
 * part per string or text part of the content.
 *
 * @throws AppError `invalid_argument` when the message does not answer this call
 */
export function toolResultFromOpenAi(
  toolCall: OpenAiToolCall,
  toolMessage: OpenAiToolMessage,
  options: ToolResultFromOpenAiOptions = {},
): MessageInitShape<typeof ToolResultSchema> {
  if (toolCall.id !== toolMessage.tool_call_id) {
    throw new AppError("invalid_argument", `tool message does not answer this tool call [tool_call_id=${toolMessage.tool_call_id}, id=${toolCall.id}]`);
  }
  const texts = typeof toolMessage.content === "string" ? [toolMessage.content] : toolMessage.content.map((part) => part.text);
  return {
    toolUseId: toolMessage.tool_call_id,
    toolName: toolCall.function.name,
    argsJson: toolCall.function.arguments,
    parts: texts.map((text) => ({ content: { case: "text", value: text } })),
    isError: options.isError === true,
  };
}
