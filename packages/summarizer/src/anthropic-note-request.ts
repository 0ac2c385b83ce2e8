import type {
  AnthropicTextBlock,
  NoteUpdateInput,
  RenderedAnthropicBlock as AnthropicContentBlock,
  RenderedAnthropicMessage as AnthropicMessage,
} from "@loupe/conversation";
import { renderAnthropicMessages } from "@loupe/conversation";
import { noteInstruction } from "./note-instruction.js";

/** The Messages API body of one note update. */
export interface AnthropicNoteRequest {
  model: string;
  max_tokens: number;
  system?: AnthropicTextBlock[];
  tools?: Array<Record<string, unknown>>;
  messages: AnthropicMessage[];
}

const EPHEMERAL = { type: "ephemeral" } as const;

/** The session's tools when `toolsJson` holds Anthropic tool definitions (each with a name, none in the OpenAI `function` shape). */
function anthropicTools(toolsJson: string): Array<Record<string, unknown>> | undefined {
  if (toolsJson === "") return undefined;
  try {
    const tools: unknown = JSON.parse(toolsJson);
    if (!Array.isArray(tools) || tools.length === 0) return undefined;
    const valid = tools.every(
      (tool: unknown) =>
        typeof tool === "object" && tool !== null && typeof (tool as { name?: unknown }).name === "string" && (tool as { type?: unknown }).type !== "function",
    );
    return valid ? (tools as Array<Record<string, unknown>>) : undefined;
  } catch {
    // Tools that do not parse are left out: the note does not need them, only the cache does.
    return undefined;
  }
}

/** Tool blocks as text, for a request without tools (the vendor refuses tool blocks when no tools are defined). */
function withoutToolBlocks(message: AnthropicMessage): AnthropicMessage {
  const content = message.content.flatMap((block): AnthropicContentBlock[] => {
    if (block.type === "tool_use") return [{ type: "text", text: `[tool call ${block.id} ${block.name}]\n${JSON.stringify(block.input)}` }];
    if (block.type === "tool_result")
      return [{ type: "text", text: `[tool result ${block.tool_use_id}${block.is_error === true ? " error" : ""}]` }, ...block.content];
    return [block];
  });
  return { role: message.role, content };
}

function markLastBlock(message: AnthropicMessage | undefined): void {
  const block = message?.content.at(-1);
  if (block !== undefined) block.cache_control = EPHEMERAL;
}

/**
 * The request of a note update as a fork of the session: the session's system prompt and tools, then
 * its turns (covered, then new), so the vendor's prompt cache can serve the prefix; then the
 * instruction. Cache breakpoints sit on the system prompt, on the message holding the last covered
 * turn (the prefix the previous update wrote) and on the last turn (the prefix the next update
 * reads). The instruction goes after the last message's blocks when that message is a user message
 * (roles must alternate), else in a new user message.
 */
export function anthropicNoteRequest(input: NoteUpdateInput, model: string, maxTokens: number): AnthropicNoteRequest {
  const tools = anthropicTools(input.toolsJson);
  const rendered = renderAnthropicMessages([...input.coveredTurns, ...input.newTurns]);
  const messages = tools === undefined ? rendered.map(withoutToolBlocks) : rendered;
  // Merging of same-role turns depends only on roles, so the covered turns alone give the index of their last message.
  if (input.coveredTurns.length > 0) markLastBlock(messages[renderAnthropicMessages(input.coveredTurns).length - 1]);
  markLastBlock(messages.at(-1));
  const instruction: AnthropicTextBlock = { type: "text", text: noteInstruction(input) };
  const last = messages.at(-1);
  if (last?.role === "user") last.content.push(instruction);
  else messages.push({ role: "user", content: [instruction] });
  const request: AnthropicNoteRequest = { model, max_tokens: maxTokens, messages };
  if (input.systemPrompt !== "") request.system = [{ type: "text", text: input.systemPrompt, cache_control: EPHEMERAL }];
  if (tools !== undefined) request.tools = tools;
  return request;
}
