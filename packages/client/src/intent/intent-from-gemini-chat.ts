import { callText, composeIntent, earlierMessage, MAX_EARLIER_MESSAGES } from "./compose-intent.js";
import { INJECTED_CONTEXT, jsonObjects, textOfParts } from "./transcript-lines.js";

/**
 * A message line of Gemini CLI's chat file (`transcript_path`, JSONL): `{id, type: "user"|"gemini",
 * content, thoughts?, model?, toolCalls?}`; a reply's `toolCalls` are `{id, name, args, result?, …}`.
 */
export interface ChatMessage {
  id?: unknown;
  type?: unknown;
  content?: unknown;
  thoughts?: unknown;
  model?: unknown;
  toolCalls?: unknown;
}

/** The user and gemini messages of a chat file's lines, in order; a message written again replaces its earlier line in place. */
export function messagesFromGeminiChat(text: string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const at = new Map<unknown, number>();
  for (const entry of jsonObjects(text) as ChatMessage[]) {
    if (entry.type !== "user" && entry.type !== "gemini") continue;
    // A message written again (its tool calls added or updated) replaces the earlier line.
    const index = entry.id === undefined ? undefined : at.get(entry.id);
    if (index !== undefined) messages[index] = entry;
    else {
      if (entry.id !== undefined) at.set(entry.id, messages.length);
      messages.push(entry);
    }
  }
  return messages;
}

/** A message's text: a string, or its `{text}` parts (function calls and responses are left out). */
const textOf = (content: unknown): string => (typeof content === "string" ? content : textOfParts(content));

/** The thoughts Gemini CLI records with a reply (`{subject, description}`), as text. */
function thoughtsOf(thoughts: unknown): string {
  if (!Array.isArray(thoughts)) return "";
  return thoughts
    .flatMap((thought: unknown) => {
      if (typeof thought !== "object" || thought === null) return [];
      const { subject, description } = thought as { subject?: unknown; description?: unknown };
      return [subject, description].filter((part): part is string => typeof part === "string" && part.trim() !== "");
    })
    .join("\n");
}

/** What a reply thought and said (its thoughts, then its text), as text; "" when it holds neither. */
export const saidInGeminiReply = (reply: ChatMessage): string =>
  [thoughtsOf(reply.thoughts), textOf(reply.content)].filter((text) => text.trim() !== "").join("\n");

/** A reply's tool calls (`toolCalls`: `{name, args}`), each as `callText` renders it; their results are left out. */
function callsOf(toolCalls: unknown): string[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.flatMap((call: unknown) => {
    if (typeof call !== "object" || call === null) return [];
    const { name, args } = call as { name?: unknown; args?: unknown };
    return typeof name === "string" ? [callText(name, args)] : [];
  });
}

/** A reply as an intent's earlier message: what it thought and said, then each of its calls (`callText`). */
const wroteIn = (reply: ChatMessage): string => earlierMessage(saidInGeminiReply(reply), callsOf(reply.toolCalls));

/**
 * The intent of a tool call from Gemini CLI's chat file, read while the call runs (its BeforeTool
 * payload names no call id): the task (the first user message that is not Gemini CLI's own context);
 * the model's replies before its last one, each with its thoughts, text and tool calls (their
 * arguments, not their results); and what the model thought and said in its last reply, the one that
 * asked for the call. `head` is the start of the file and `tail` its end (the earlier replies come from
 * `tail`); they may be the same text.
 */
export function intentFromGeminiChat(head: string, tail: string): string {
  const messages = messagesFromGeminiChat(tail);
  // A chat file read whole (head and tail the same text) is parsed once.
  const task = (head === tail ? messages : messagesFromGeminiChat(head)).find(
    (message) => message.type === "user" && textOf(message.content).trim() !== "" && !INJECTED_CONTEXT.test(textOf(message.content)),
  );
  const replies = messages.filter((message) => message.type === "gemini");
  const asking = replies.at(-1);
  const earlier = replies.slice(0, -1).slice(-MAX_EARLIER_MESSAGES).map(wroteIn);
  return composeIntent(task === undefined ? "" : textOf(task.content), asking === undefined ? "" : saidInGeminiReply(asking), earlier);
}

/** The model of the chat's last reply (`model`), which the call's view is for; "" when none is named. */
export function modelFromGeminiChat(tail: string): string {
  const reply = messagesFromGeminiChat(tail)
    .reverse()
    .find((message) => message.type === "gemini" && typeof message.model === "string" && message.model !== "");
  return typeof reply?.model === "string" ? reply.model.slice(0, 200) : "";
}
