import { INJECTED_CONTEXT, messagesFromGeminiChat, modelFromGeminiChat, saidInGeminiReply, textOfParts, type ChatMessage } from "@loupe/client/intent";
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

/** A message's text: a string, or its `{text}` parts. */
const textOf = (content: unknown): string => (typeof content === "string" ? content : textOfParts(content));

const callsOf = (message: ChatMessage): Entry[] => (Array.isArray(message.toolCalls) ? message.toolCalls.filter(isObject) : []);

/** What a reply did, as a corpus `next_action`: its thoughts and text (`saidInGeminiReply`), then each of its calls. */
function actionOf(message: ChatMessage): string {
  return [saidInGeminiReply(message), ...callsOf(message).map((call) => callLine(typeof call["name"] === "string" ? call["name"] : "", call["args"]))]
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
 * The corpus rows of one Gemini CLI chat file's text: one row a call whose result the chat holds and after
 * which Gemini replied (that reply — thoughts, text and calls — is its `next_action`), stepped from 1; calls of one
 * reply share the reply after them, and each row records the reply that issued its call and those before it. The
 * task is the first user message Gemini CLI did not write itself; the agent system `gemini-cli (<model>)`.
 */
export function rowsOfGeminiChat(text: string, trajectoryId: string): CorpusRow[] {
  const messages = messagesFromGeminiChat(text);
  const user = messages.find((message) => message.type === "user" && textOf(message.content).trim() !== "" && !INJECTED_CONTEXT.test(textOf(message.content)));
  const task = user === undefined ? "" : textOf(user.content).trim();
  const model = modelFromGeminiChat(text);
  const agentSystem = model === "" ? "gemini-cli" : `gemini-cli (${model})`;
  const turns = messages
    .filter((message) => message.type === "gemini")
    .map((reply): SessionTurn => ({
      action: actionOf(reply),
      calls: callsOf(reply).flatMap((call): SessionCall[] => {
        const answer = outputOf(call);
        if (answer === undefined) return [];
        return [{ name: typeof call["name"] === "string" ? call["name"] : "", args: call["args"] ?? null, ...answer, isError: call["status"] === "error" }];
      }),
    }));
  return rowsOfTurns(turns, { agentSystem, trajectoryId, task, model });
}
