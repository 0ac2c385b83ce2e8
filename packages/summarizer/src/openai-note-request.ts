import type { NoteUpdateInput, OpenAIChatMessage } from "@loupe/conversation";
import { renderOpenAIChatMessages } from "@loupe/conversation";
import { noteInstruction } from "./note-instruction.js";

/** The Chat Completions body of one note update. */
export interface OpenAINoteRequest {
  model: string;
  messages: OpenAIChatMessage[];
  tools?: Array<Record<string, unknown>>;
  max_completion_tokens: number;
}

/** The session's tools when `toolsJson` holds Chat Completions tools (`{ type: "function", … }`). */
function chatTools(toolsJson: string): Array<Record<string, unknown>> | undefined {
  if (toolsJson === "") return undefined;
  try {
    const tools: unknown = JSON.parse(toolsJson);
    if (!Array.isArray(tools) || tools.length === 0) return undefined;
    const valid = tools.every((tool: unknown) => typeof tool === "object" && tool !== null && (tool as { type?: unknown }).type === "function");
    return valid ? (tools as Array<Record<string, unknown>>) : undefined;
  } catch {
    // Tools that do not parse are left out: the note does not need them, only the cache does.
    return undefined;
  }
}

/**
 * The request of a note update as a fork of the session: its system prompt, its turns (covered, then
 * new) and its tools as given, so the vendor's automatic prefix cache can serve them; then the
 * instruction as a final user message.
 */
export function openAINoteRequest(input: NoteUpdateInput, model: string, maxTokens: number): OpenAINoteRequest {
  const messages = renderOpenAIChatMessages([...input.coveredTurns, ...input.newTurns], input.systemPrompt);
  messages.push({ role: "user", content: noteInstruction(input) });
  const request: OpenAINoteRequest = { model, messages, max_completion_tokens: maxTokens };
  const tools = chatTools(input.toolsJson);
  if (tools !== undefined) request.tools = tools;
  return request;
}
