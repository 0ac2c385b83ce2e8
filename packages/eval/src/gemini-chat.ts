import { INJECTED_CONTEXT } from "@loupe/client/intent";
import type { CorpusRow } from "./corpus-row.js";
import { callLine, rowsOfTurns, type SessionCall, type SessionTurn } from "./session-rows.js";

// Gemini CLI's chat files (`~/.gemini/tmp/<project>/chats/session-….jsonl`) read as corpus rows, so a user measures
// Loupe's first views on their own sessions: `loupe eval --corpus ~/.gemini/tmp`.

type Entry = Record<string, unknown>;

const isObject = (value: unknown): value is Entry => typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether one parsed JSONL line opens a Gemini CLI chat file: its header (`sessionId`, `projectHash`, `startTime`). */
export function isGeminiChatLine(value: unknown): boolean {
  return isObject(value) && typeof value["sessionId"] === "string" && typeof value["projectHash"] === "string" && "startTime" in value;
}

/** The user and gemini messages of a chat file's lines, in order; a message written again (its calls updated) replaces its earlier line. */
function messagesOf(lines: readonly Entry[]): Entry[] {
  const messages: Entry[] = [];
  const at = new Map<unknown, number>();
  for (const entry of lines) {
    if (entry["type"] !== "user" && entry["type"] !== "gemini") continue;
    const index = entry["id"] === undefined ? undefined : at.get(entry["id"]);
    if (index !== undefined) messages[index] = entry;
    else {
      if (entry["id"] !== undefined) at.set(entry["id"], messages.length);
      messages.push(entry);
    }
  }
  return messages;
}

/** A message's text: a string, or its `{text}` parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part: unknown) => (isObject(part) && typeof part["text"] === "string" ? [part["text"]] : [])).join("\n");
}

/** A reply's thoughts (`{subject, description}`) as text. */
function thoughtsOf(thoughts: unknown): string {
  if (!Array.isArray(thoughts)) return "";
  return thoughts
    .flatMap((thought: unknown) => (isObject(thought) ? [thought["subject"], thought["description"]] : []))
    .filter((part): part is string => typeof part === "string" && part.trim() !== "")
    .join("\n");
}

const callsOf = (message: Entry): Entry[] => (Array.isArray(message["toolCalls"]) ? message["toolCalls"].filter(isObject) : []);

/** What a reply did, as a corpus `next_action`: its thoughts, its text, then each of its calls. */
function actionOf(message: Entry): string {
  return [
    thoughtsOf(message["thoughts"]),
    textOf(message["content"]).trim(),
    ...callsOf(message).map((call) => callLine(typeof call["name"] === "string" ? call["name"] : "", call["args"])),
  ]
    .filter((part) => part !== "")
    .join("\n");
}

// Gemini CLI's frame around a tool's answer, and the lines its shell tool writes after a command's output.
const UNTRUSTED = /^<untrusted_context>\n([\s\S]*?)\n?<\/untrusted_context>$/;
const SHELL_TRAILER = /\n(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID): /;

/** A call's output: its function response's `output` (the shell's framing taken off a command's output, its exit code read), else the response as JSON. */
function outputOf(call: Entry): { output: string; exitCode: number | undefined } | undefined {
  const result: unknown = Array.isArray(call["result"]) ? call["result"][0] : undefined;
  const response = isObject(result) && isObject(result["functionResponse"]) ? result["functionResponse"]["response"] : undefined;
  if (!isObject(response)) return undefined;
  const raw = response["output"];
  if (typeof raw !== "string") return { output: JSON.stringify(response), exitCode: undefined };
  const text = UNTRUSTED.exec(raw)?.[1] ?? raw;
  if (!text.startsWith("Output: ")) return { output: text, exitCode: undefined };
  const trailer = SHELL_TRAILER.exec(text);
  const output = text.slice("Output: ".length, trailer?.index ?? text.length);
  const code = /\nExit Code: (-?\d+)/.exec(text);
  return { output: output === "(empty)" ? "" : output, exitCode: code === null ? 0 : Number(code[1]) };
}

/**
 * The corpus rows of one Gemini CLI chat file's parsed lines: one row a call whose result the chat holds and after
 * which Gemini replied (that reply — thoughts, text and calls — is its `next_action`), stepped from 1; calls of one
 * reply share the reply after them, and each row records the reply that issued its call and those before it. The
 * task is the first user message Gemini CLI did not write itself; the agent system `gemini-cli (<model>)`.
 */
export function rowsOfGeminiChat(lines: readonly Entry[], trajectoryId: string): CorpusRow[] {
  const messages = messagesOf(lines);
  const user = messages.find(
    (message) => message["type"] === "user" && textOf(message["content"]).trim() !== "" && !INJECTED_CONTEXT.test(textOf(message["content"])),
  );
  const task = user === undefined ? "" : textOf(user["content"]).trim();
  const replies = messages.filter((message) => message["type"] === "gemini");
  const model = [...replies].reverse().find((reply) => typeof reply["model"] === "string")?.["model"];
  const agentSystem = typeof model === "string" && model !== "" ? `gemini-cli (${model})` : "gemini-cli";
  const turns = replies.map((reply): SessionTurn => ({
    action: actionOf(reply),
    calls: callsOf(reply).flatMap((call): SessionCall[] => {
      const answer = outputOf(call);
      if (answer === undefined) return [];
      return [{ name: typeof call["name"] === "string" ? call["name"] : "", args: call["args"] ?? null, ...answer, isError: call["status"] === "error" }];
    }),
  }));
  return rowsOfTurns(turns, { agentSystem, trajectoryId, task, model: typeof model === "string" ? model : "" });
}
