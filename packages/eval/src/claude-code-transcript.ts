import { messagesFromClaudeTranscript, modelFromClaudeTranscript, textOfContent } from "@loupe/client/intent";
import type { AnthropicContentBlock, AnthropicMessage, AnthropicToolResultBlock, AnthropicToolUseBlock } from "@loupe/conversation";
import type { CorpusRow } from "./corpus-row.js";
import { callLine, rowsOfTurns, type SessionCall, type SessionTurn } from "./session-rows.js";

// Claude Code's session transcripts (`~/.claude/projects/<project>/<session>.jsonl`) read as corpus rows, so a user
// measures Loupe's first views on their own sessions: `loupe eval --corpus ~/.claude/projects/<project>`.

const MESSAGE_TYPES = new Set(["user", "assistant", "summary", "system", "queue-operation", "file-history-snapshot"]);

/** Whether one parsed JSONL line is a Claude Code transcript line (not a corpus row): a `type` it writes and a `sessionId` or `message`. */
export function isClaudeTranscriptLine(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  return typeof line["type"] === "string" && MESSAGE_TYPES.has(line["type"]) && ("sessionId" in line || "message" in line) && !("agent_system" in line);
}

const blocksOf = (message: AnthropicMessage): readonly AnthropicContentBlock[] => (typeof message.content === "string" ? [] : message.content);
const isToolUse = (block: AnthropicContentBlock): block is AnthropicToolUseBlock => block.type === "tool_use";
const isToolResult = (block: AnthropicContentBlock): block is AnthropicToolResultBlock => block.type === "tool_result";

/** The text of a message's text blocks (or its string content), joined by newlines. */
const textOf = (message: AnthropicMessage): string => (typeof message.content === "string" ? message.content : textOfContent(message.content).trim());

// What Claude Code appends to a tool's result for the model: not the tool's output.
const REMINDERS = /(?:\n\n<system-reminder>[\s\S]*?<\/system-reminder>)+\n*$/;

/** A tool result's text (its string content, or its text blocks joined by newlines) without the reminders appended to it. */
function resultText(block: AnthropicToolResultBlock): string {
  const { content } = block;
  return (typeof content === "string" ? content : textOfContent(content ?? [])).replace(REMINDERS, "");
}

// Claude Code opens a failed Bash command's result with its exit code.
const EXIT_LINE = /^Exit code (-?\d+)\n/;

/**
 * A result's output and exit code: a Bash result's "Exit code N" line read and taken off (0 without it when the
 * result is not an error), any other result as it is.
 */
function answerOf(tool: string, text: string, isError: boolean): { output: string; exitCode: number | undefined } {
  if (tool !== "Bash") return { output: text, exitCode: undefined };
  const exit = EXIT_LINE.exec(text);
  if (exit !== null) return { output: text.slice(exit[0].length), exitCode: Number(exit[1]) };
  return { output: text, exitCode: isError ? undefined : 0 };
}

/** What an assistant message did, as a corpus `next_action`: its text, then each of its calls. */
function actionOf(message: AnthropicMessage): string {
  return [
    textOf(message),
    ...blocksOf(message)
      .filter(isToolUse)
      .map((block) => callLine(block.name, block.input)),
  ]
    .filter((part) => part !== "")
    .join("\n");
}

// What Claude Code itself puts in a user message (a command's output, a hook's context, an interruption): not the task.
const NOT_THE_TASK = /^\s*(<[a-z_-]+>|\[Request interrupted|Caveat:)/;

/**
 * The corpus rows of one Claude Code transcript's text: one row a tool call whose result the transcript holds and
 * after which the assistant spoke again (that reply is the row's `next_action`), stepped from 1 in transcript
 * order. Subagents' lines (`isSidechain`) are left out. The task is the first user message that is not a tool
 * result or Claude Code's own; the agent system `claude-code (<model>)` when a reply names its model. Each row
 * records the message that issued its call and the assistant's messages before it (`previous_action`,
 * `earlier_actions`), which calls made side by side in one message share. Undefined
 * when the text holds no Claude Code message.
 */
export function rowsOfClaudeCodeTranscript(text: string, trajectoryId: string): CorpusRow[] | undefined {
  const main = text
    .split("\n")
    .filter((line) => !/"isSidechain"\s*:\s*true/.test(line))
    .join("\n");
  const messages = messagesFromClaudeTranscript(main);
  if (messages.length === 0) return undefined;
  const model = modelFromClaudeTranscript(main);
  const agentSystem = model === "" ? "claude-code" : `claude-code (${model})`;
  const task =
    messages.find(
      (message) => message.role === "user" && !blocksOf(message).some(isToolResult) && textOf(message) !== "" && !NOT_THE_TASK.test(textOf(message)),
    )?.content ?? "";
  const taskText = typeof task === "string" ? task : textOf({ role: "user", content: task });
  const turns: SessionTurn[] = [];
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const results = new Map<string, AnthropicToolResultBlock>();
    for (let after = index + 1; after < messages.length && messages[after]?.role === "user"; after++)
      // A result may be written again with a reminder appended: the first is the tool's.
      for (const block of blocksOf(messages[after] as AnthropicMessage))
        if (isToolResult(block) && !results.has(block.tool_use_id)) results.set(block.tool_use_id, block);
    const calls = blocksOf(message)
      .filter(isToolUse)
      .flatMap((call): SessionCall[] => {
        const result = results.get(call.id);
        if (result === undefined) return [];
        return [
          {
            name: call.name,
            args: call.input ?? null,
            ...answerOf(call.name, resultText(result), result.is_error === true),
            isError: result.is_error === true,
          },
        ];
      });
    turns.push({ action: actionOf(message), calls });
  });
  return rowsOfTurns(turns, { agentSystem, trajectoryId, task: taskText, model });
}
