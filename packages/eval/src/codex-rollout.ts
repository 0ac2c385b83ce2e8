import { isRolloutToolOutput, isRolloutUserText, jsonObjects, rolloutItems, saidInRolloutItem, textOfParts, type RolloutItem } from "@loupe/client/intent";
import type { CorpusRow } from "./corpus-row.js";
import { callLine, rowsOfTurns, type SessionCall, type SessionTurn } from "./session-rows.js";

// Codex's session rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl`) read as corpus rows, so a user
// measures Loupe's first views on their own sessions: `loupe eval --corpus ~/.codex/sessions`.

type Item = Record<string, unknown>;

const LINE_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

/** Whether one parsed JSONL line is a Codex rollout's: a `type` it writes and a `payload`. */
export function isCodexRolloutLine(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  return typeof line["type"] === "string" && LINE_TYPES.has(line["type"]) && typeof line["payload"] === "object" && line["payload"] !== null;
}

const isCall = (item: RolloutItem): boolean => item.type === "function_call" || item.type === "custom_tool_call";

/** A call's arguments: a function call's JSON `arguments` parsed (left as text when not JSON), a custom call's `input`. */
function argsOf(item: RolloutItem): unknown {
  if (item.type === "custom_tool_call") return { input: item.input };
  const text = item.arguments;
  if (typeof text !== "string") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { arguments: text };
  }
}

/** What the model wrote in an item as a next action's line: a call as `callLine` writes it, else what it said (`saidInRolloutItem`). */
const wroteIn = (item: RolloutItem): string => (isCall(item) && typeof item.name === "string" ? callLine(item.name, argsOf(item)) : saidInRolloutItem(item));

// The header Codex's exec tools put above a command's output ("Process exited with code 1", or "Process running with
// session ID 7" for one still running, then "Output:").
const EXEC_HEADER =
  /^(?:Chunk ID: [^\n]*\n)?(?:Wall time: [^\n]*\n)?(?:Process (?:exited with code (-?\d+)|running with session ID [^\n]*)\n)?(?:Original token count: [^\n]*\n)?Output:\n/;

/** A tool output's text and exit code: the exec header's code and what follows it, an older `{output, metadata}` JSON's, or the text as it is. */
function outputOf(item: RolloutItem): { output: string; exitCode: number | undefined } {
  const raw = item.output;
  const text = typeof raw === "string" ? raw : textOfParts(raw);
  const header = EXEC_HEADER.exec(text);
  if (header !== null) return { output: text.slice(header[0].length), exitCode: header[1] === undefined ? undefined : Number(header[1]) };
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as { output?: unknown; metadata?: { exit_code?: unknown } };
      if (typeof parsed.output === "string")
        return { output: parsed.output, exitCode: typeof parsed.metadata?.exit_code === "number" ? parsed.metadata.exit_code : undefined };
    } catch {
      // Not the older JSON shape: the text as it is.
    }
  }
  return { output: text, exitCode: undefined };
}

/** The model a rollout's last `turn_context` names; "" when none does. */
function modelOf(lines: readonly Item[]): string {
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index];
    const payload = line?.["payload"] as Item | undefined;
    if (line?.["type"] === "turn_context" && typeof payload?.["model"] === "string") return payload["model"];
  }
  return "";
}

/**
 * The corpus rows of one Codex rollout's text: one row a call whose output the rollout holds and after
 * which the model wrote again (that turn — its text, reasoning summaries and calls — is the row's `next_action`),
 * stepped from 1. A model turn is what it wrote between tool outputs and user messages; calls of one turn share
 * the turn that follows, and each row records the turn that issued its call and the turns before it. The task is
 * the first user message Codex did not write itself; the agent system `codex (<model>)` when a turn names its model.
 */
export function rowsOfCodexRollout(text: string, trajectoryId: string): CorpusRow[] {
  const items = rolloutItems(text);
  const model = modelOf(jsonObjects(text));
  const agentSystem = model === "" ? "codex" : `codex (${model})`;
  const task = textOfParts(items.find(isRolloutUserText)?.content).trim();
  // The model's turns, each with its items and the tool outputs after it.
  const turns: Array<{ wrote: RolloutItem[]; outputs: RolloutItem[] }> = [];
  for (const item of items) {
    const last = turns[turns.length - 1];
    if (isRolloutToolOutput(item)) last?.outputs.push(item);
    else if (isRolloutUserText(item)) turns.push({ wrote: [], outputs: [] });
    else if (wroteIn(item) !== "" || isCall(item)) {
      if (last === undefined || last.outputs.length > 0) turns.push({ wrote: [item], outputs: [] });
      else last.wrote.push(item);
    }
  }
  const actionOf = (turn: { wrote: RolloutItem[] }): string =>
    turn.wrote
      .map(wroteIn)
      .filter((text) => text.trim() !== "")
      .join("\n");
  const sessionTurns = turns.map((turn): SessionTurn => ({
    action: actionOf(turn),
    calls: turn.wrote.filter(isCall).flatMap((call): SessionCall[] => {
      const answer = turn.outputs.find((output) => output["call_id"] === call["call_id"]);
      if (answer === undefined) return [];
      const { output, exitCode } = outputOf(answer);
      return [{ name: typeof call["name"] === "string" ? call["name"] : "", args: argsOf(call), output, exitCode, isError: false }];
    }),
  }));
  return rowsOfTurns(sessionTurns, { agentSystem, trajectoryId, task, model });
}
