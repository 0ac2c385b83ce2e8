import type { AnthropicContentBlock, AnthropicMessage } from "@loupe/conversation";
import { callText, composeIntent, earlierMessage, MAX_EARLIER_MESSAGES } from "./compose-intent.js";

/** The text blocks of a message's content, joined; tool results and other blocks are left out. */
export function textOfContent(content: string | readonly AnthropicContentBlock[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((block): block is AnthropicContentBlock & { text: string } => block.type === "text" && typeof block["text"] === "string")
    .map((block) => block.text)
    .join("\n");
}

/** An assistant message as an intent's earlier message: its text, then each of its calls (`callText`). */
export function assistantSaid(content: string | readonly AnthropicContentBlock[]): string {
  if (typeof content === "string") return content;
  const calls = content.flatMap((block) =>
    block.type === "tool_use" ? [callText(typeof block["name"] === "string" ? block["name"] : "", block["input"])] : [],
  );
  return earlierMessage(textOfContent(content), calls);
}

/**
 * The intent of the call `toolUseId` in an Anthropic `messages` array: the first user message's
 * text (the task), the assistant's messages before the one that asked for the call (their text and
 * calls), and the text of the assistant message whose `tool_use` asked for the call (its reasoning,
 * as the runtime has it). Without that call, the last assistant message stands for it.
 */
export function intentFromAnthropicMessages(messages: readonly AnthropicMessage[], toolUseId: string): string {
  const task = messages.find((message) => message.role === "user" && textOfContent(message.content).trim() !== "");
  let at = messages.findIndex(
    (message) =>
      message.role === "assistant" &&
      typeof message.content !== "string" &&
      message.content.some((block) => block.type === "tool_use" && block["id"] === toolUseId),
  );
  for (let index = messages.length - 1; at < 0 && index >= 0; index--) if (messages[index]?.role === "assistant") at = index;
  const asking = messages[at];
  const earlier = messages
    .slice(0, Math.max(0, at))
    .filter((message) => message.role === "assistant")
    .slice(-MAX_EARLIER_MESSAGES)
    .map((message) => assistantSaid(message.content));
  return composeIntent(task === undefined ? "" : textOfContent(task.content), asking === undefined ? "" : textOfContent(asking.content), earlier);
}
