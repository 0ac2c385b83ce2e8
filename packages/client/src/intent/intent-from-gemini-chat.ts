import { composeIntent } from "./compose-intent.js";
import { INJECTED_CONTEXT, jsonObjects, textOfParts } from "./transcript-lines.js";

/** A message line of Gemini CLI's chat file (`transcript_path`, JSONL): `{id, type: "user"|"gemini", content, thoughts?, model?}`. */
interface ChatMessage {
  id?: unknown;
  type?: unknown;
  content?: unknown;
  thoughts?: unknown;
  model?: unknown;
}

function messagesOf(text: string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const entry of jsonObjects(text) as ChatMessage[]) {
    if (entry.type !== "user" && entry.type !== "gemini") continue;
    // A message written again (its tool calls added) replaces the earlier line.
    if (messages.at(-1)?.id === entry.id && entry.id !== undefined) messages[messages.length - 1] = entry;
    else messages.push(entry);
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

/**
 * The intent of a tool call from Gemini CLI's chat file, read while the call runs (its BeforeTool
 * payload names no call id): the task (the first user message that is not Gemini CLI's own context)
 * and what the model said and thought in its last reply, the one that asked for the call. `head` is the
 * start of the file and `tail` its end (they may be the same text).
 */
export function intentFromGeminiChat(head: string, tail: string): string {
  const task = messagesOf(head).find(
    (message) => message.type === "user" && textOf(message.content).trim() !== "" && !INJECTED_CONTEXT.test(textOf(message.content)),
  );
  const asking = messagesOf(tail)
    .reverse()
    .find((message) => message.type === "gemini");
  const said = asking === undefined ? "" : [thoughtsOf(asking.thoughts), textOf(asking.content)].filter((text) => text.trim() !== "").join("\n");
  return composeIntent(task === undefined ? "" : textOf(task.content), said);
}

/** The model of the chat's last reply (`model`), which the call's view is for; "" when none is named. */
export function modelFromGeminiChat(tail: string): string {
  const reply = messagesOf(tail)
    .reverse()
    .find((message) => message.type === "gemini" && typeof message.model === "string" && message.model !== "");
  return typeof reply?.model === "string" ? reply.model.slice(0, 200) : "";
}
