import type { AnthropicContentBlock, AnthropicMessage } from "@loupe/conversation";
import { composeIntent } from "./compose-intent.js";

/** The text blocks of a message's content, joined; tool results and other blocks are left out. */
export function textOfContent(content: string | readonly AnthropicContentBlock[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((block): block is AnthropicContentBlock & { text: string } => block.type === "text" && typeof block["text"] === "string")
    .map((block) => block.text)
    .join("\n");
}

/**
 * The intent of the call `toolUseId` in an Anthropic `messages` array: the first user message's
 * text (the task) and the text of the assistant message whose `tool_use` asked for the call (its
 * reasoning, as the runtime has it). Without that call, the last assistant text before the end.
 */
export function intentFromAnthropicMessages(messages: readonly AnthropicMessage[], toolUseId: string): string {
  const task = messages.find((message) => message.role === "user" && textOfContent(message.content).trim() !== "");
  const asking =
    messages.find(
      (message) =>
        message.role === "assistant" &&
        typeof message.content !== "string" &&
        message.content.some((block) => block.type === "tool_use" && block["id"] === toolUseId),
    ) ?? [...messages].reverse().find((message) => message.role === "assistant");
  return composeIntent(task === undefined ? "" : textOfContent(task.content), asking === undefined ? "" : textOfContent(asking.content));
}
