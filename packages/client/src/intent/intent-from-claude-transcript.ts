import type { AnthropicContentBlock, AnthropicMessage } from "@loupe/conversation";
import { intentFromAnthropicMessages } from "./intent-from-anthropic-messages.js";
import { jsonObject } from "./transcript-lines.js";

interface TranscriptLine {
  type?: unknown;
  message?: { id?: unknown; role?: unknown; content?: unknown; model?: unknown };
}

const parseLine = (line: string): TranscriptLine | undefined => jsonObject(line);

/**
 * The messages of a Claude Code transcript (JSONL: one `{type: "user"|"assistant", message}` per
 * line; an assistant message is written as several lines with the same `message.id`, one per
 * block), merged back into Anthropic messages. Lines that are not messages are skipped.
 */
export function messagesFromClaudeTranscript(text: string): AnthropicMessage[] {
  const messages: AnthropicMessage[] = [];
  let lastAssistantId: unknown;
  for (const line of text.split("\n")) {
    const entry = parseLine(line);
    const message = entry?.message;
    if (message === undefined || (entry?.type !== "user" && entry?.type !== "assistant")) continue;
    const content =
      typeof message.content === "string" ? message.content : Array.isArray(message.content) ? (message.content as AnthropicContentBlock[]) : undefined;
    if (content === undefined) continue;
    const previous = messages.at(-1);
    if (
      entry.type === "assistant" &&
      previous?.role === "assistant" &&
      message.id !== undefined &&
      message.id === lastAssistantId &&
      typeof previous.content !== "string"
    ) {
      previous.content = [...previous.content, ...(typeof content === "string" ? [{ type: "text", text: content }] : content)];
      continue;
    }
    messages.push({ role: entry.type, content });
    lastAssistantId = entry.type === "assistant" ? message.id : undefined;
  }
  return messages;
}

/**
 * The intent of a tool call from a Claude Code transcript (see intentFromAnthropicMessages): the task
 * (its first user message), the assistant's earlier messages with their calls, and the assistant text
 * that asked for the call `toolUseId`. `head` is the start of the transcript and `tail` its end (a long
 * transcript is read at both ends only); they may be the same text, which is then parsed once.
 */
export function intentFromClaudeTranscript(head: string, tail: string, toolUseId: string): string {
  const recent = messagesFromClaudeTranscript(tail);
  if (head === tail) return intentFromAnthropicMessages(recent, toolUseId);
  const first = messagesFromClaudeTranscript(head).find((message) => message.role === "user");
  return intentFromAnthropicMessages(first === undefined ? recent : [first, ...recent], toolUseId);
}

/**
 * The model of a Claude Code transcript's last assistant message (the API's `message.model`), which the
 * next call's view is for; "" when the text holds none.
 */
export function modelFromClaudeTranscript(tail: string): string {
  const lines = tail.split("\n");
  for (let index = lines.length - 1; index >= 0; index--) {
    const entry = parseLine(lines[index] ?? "");
    const model = entry?.type === "assistant" ? entry.message?.model : undefined;
    if (typeof model === "string" && model !== "") return model.slice(0, 200);
  }
  return "";
}
