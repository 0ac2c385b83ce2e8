import type { MessageInitShape } from "@bufbuild/protobuf";
import { isAppError } from "@loupe/errors";
import type { ProjectRequestSchema, ProjectResponse, ToolResultSchema } from "@loupe/proto";
import type { AnthropicContentBlock, AnthropicMessage, AnthropicToolResultBlock, AnthropicToolUseBlock } from "@loupe/conversation";
import { applyProjectionToAnthropic } from "./apply-projection-to-anthropic.js";
import type { LoupeCallOptions } from "./loupe-client.js";
import { intentFromAnthropicMessages } from "./intent/intent-from-anthropic-messages.js";
import { partsFromAnthropicContent } from "./tool-result-from-anthropic.js";

/** Options of {@link projectAnthropicMessages}: the Project request fields shared by every result, plus call options. */
export interface ProjectAnthropicMessagesOptions extends LoupeCallOptions {
  sessionId?: string;
  source?: string;
  model?: string;
  /** 0 or absent = the source's rule, else the model profile's default. */
  budgetTokens?: number;
  view?: string;
  /**
   * What the agent is after, for every result (ProjectRequest.intent). Absent: each result's
   * intent is taken from the messages before it — the first user message (the task) and the
   * assistant message that made the call.
   */
  intent?: string;
}

/** What {@link projectAnthropicMessages} returns. */
export interface ProjectedAnthropicMessages {
  /** A new array: same messages and blocks in the same order, tool_result contents replaced by their views. */
  messages: AnthropicMessage[];
  /** Results sent to Project. */
  projectedResults: number;
  /** Sum of the projections' usage.saved_tokens. */
  savedTokens: number;
}

/** The part of a client {@link projectAnthropicMessages} needs. */
export interface ProjectCaller {
  project(request: MessageInitShape<typeof ProjectRequestSchema>, options?: LoupeCallOptions): Promise<ProjectResponse>;
}

/**
 * Walks an Anthropic `messages` array and replaces each `tool_result`'s
 * content with its projection (one Project call per result, in order),
 * keeping tool_use_id, is_error, every other block, and the order of blocks
 * and messages — the tool-exchange order — unchanged. The tool's name and
 * input come from the matching earlier `tool_use` block (empty and `{}` when
 * there is none). A result without content, or with a block the helpers cannot
 * give back (e.g. a search_result), is left as it is. Each request carries the result's intent (the
 * task and the assistant text that asked for the call) unless `options.intent` gives one. The input
 * is not changed.
 *
 * @throws the AppError of a failed Project call
 */
export async function projectAnthropicMessages(
  client: ProjectCaller,
  messages: readonly AnthropicMessage[],
  options: ProjectAnthropicMessagesOptions = {},
): Promise<ProjectedAnthropicMessages> {
  const toolUses = new Map<string, AnthropicToolUseBlock>();
  const result: ProjectedAnthropicMessages = { messages: [], projectedResults: 0, savedTokens: 0 };
  for (const message of messages) {
    if (typeof message.content === "string") {
      result.messages.push(message);
      continue;
    }
    const content: AnthropicContentBlock[] = [];
    for (const block of message.content) {
      if (isToolUse(block)) toolUses.set(block.id, block);
      if (!isToolResult(block)) {
        content.push(block);
        continue;
      }
      const toolResult = toolResultInit(block, toolUses.get(block.tool_use_id));
      if (!toolResult) {
        content.push(block);
        continue;
      }
      const intent = options.intent ?? intentFromAnthropicMessages([...result.messages, { ...message, content }], block.tool_use_id);
      const response = await client.project(projectRequest(toolResult, options, intent), callOptions(options));
      result.projectedResults++;
      result.savedTokens += response.usage?.savedTokens ?? 0;
      content.push(applyProjectionToAnthropic(block, response));
    }
    result.messages.push({ ...message, content });
  }
  return result;
}

function isToolUse(block: AnthropicContentBlock): block is AnthropicToolUseBlock {
  return block.type === "tool_use" && typeof block["id"] === "string";
}

function isToolResult(block: AnthropicContentBlock): block is AnthropicToolResultBlock {
  return block.type === "tool_result" && typeof block["tool_use_id"] === "string";
}

function toolResultInit(block: AnthropicToolResultBlock, toolUse: AnthropicToolUseBlock | undefined): MessageInitShape<typeof ToolResultSchema> | undefined {
  if (block.content === undefined || block.content.length === 0) return undefined;
  try {
    const parts = partsFromAnthropicContent(block.content);
    return {
      toolUseId: block.tool_use_id,
      toolName: toolUse?.name ?? "",
      argsJson: JSON.stringify(toolUse?.input ?? {}),
      parts,
      isError: block.is_error === true,
    };
  } catch (error) {
    // A block we could not give back stays untouched rather than being lost.
    if (isAppError(error) && error.code === "invalid_argument") return undefined;
    throw error;
  }
}

function projectRequest(
  toolResult: MessageInitShape<typeof ToolResultSchema>,
  options: ProjectAnthropicMessagesOptions,
  intent: string,
): MessageInitShape<typeof ProjectRequestSchema> {
  return {
    result: toolResult,
    ...(intent === "" ? {} : { intent }),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    ...(options.source === undefined ? {} : { source: options.source }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.budgetTokens === undefined ? {} : { budgetTokens: options.budgetTokens }),
    ...(options.view === undefined ? {} : { view: options.view }),
  };
}

function callOptions(options: ProjectAnthropicMessagesOptions): LoupeCallOptions {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) };
}
