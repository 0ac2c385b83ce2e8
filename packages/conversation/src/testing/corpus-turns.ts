import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Turn } from "../turn.js";
import { corpusDir } from "./corpus-dir.js";

/** One recorded tool call of the corpus (the fields the turn builder reads). */
export interface CorpusCall {
  trajectory_id: string;
  step: number;
  task: string;
  tool: string;
  args: unknown;
  output: string;
  exit_code: number | null;
  is_error?: boolean;
  next_action: string;
}

/** The corpus files, by agent system. */
export const CORPUS_FILES = ["mini-swe-agent.jsonl.gz", "swe-agent.jsonl.gz", "openhands.jsonl.gz"] as const;

/** Whether the corpus is on this machine. */
export function hasCorpus(): boolean {
  return CORPUS_FILES.every((file) => existsSync(join(corpusDir(), file)));
}

/** The trajectories of one corpus file: calls grouped by trajectory id, in step order. */
export function readTrajectories(file: (typeof CORPUS_FILES)[number]): Map<string, CorpusCall[]> {
  const trajectories = new Map<string, CorpusCall[]>();
  const text = gunzipSync(readFileSync(join(corpusDir(), file))).toString("utf8");
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const call = JSON.parse(line) as CorpusCall;
    const calls = trajectories.get(call.trajectory_id) ?? [];
    calls.push(call);
    trajectories.set(call.trajectory_id, calls);
  }
  for (const calls of trajectories.values()) calls.sort((left, right) => left.step - right.step);
  return trajectories;
}

// `next_action` is the agent's text and then its next call ("[bash] cmd" or a fenced block): keep the text.
function thoughtOf(nextAction: string): string {
  const cut = nextAction.search(/^\[[\w ./-]+\] |^```/m);
  return (cut === -1 ? nextAction : nextAction.slice(0, cut)).trim();
}

/**
 * A trajectory as turns: the task as turn 1 (user); then per call an
 * assistant turn (the text the agent wrote before it, from the previous
 * call's `next_action`, and the call) and a user turn carrying its result;
 * last, an assistant turn with the final `next_action` text.
 */
export function turnsOfTrajectory(calls: readonly CorpusCall[]): Turn[] {
  const turns: Turn[] = [];
  const push = (turn: Omit<Turn, "seq" | "tokenCount">): void => {
    turns.push({ ...turn, seq: turns.length + 1, tokenCount: 0 });
  };
  push({ role: "user", parts: [{ type: "text", text: calls[0]?.task ?? "" }], toolCalls: [], toolResults: [] });
  calls.forEach((call, index) => {
    const toolUseId = `call-${String(call.step)}`;
    // OpenHands calls are recorded as "str_replace_editor view"; the sub-command is in the args.
    const name = call.tool.startsWith("str_replace_editor ") ? "str_replace_editor" : call.tool;
    const thought = index === 0 ? "" : thoughtOf(calls[index - 1]?.next_action ?? "");
    push({
      role: "assistant",
      parts: thought === "" ? [] : [{ type: "text", text: thought }],
      toolCalls: [{ toolUseId, name, argsJson: JSON.stringify(call.args) }],
      toolResults: [],
    });
    const exitCode = call.exit_code ?? undefined;
    push({
      role: "user",
      parts: [],
      toolCalls: [],
      toolResults: [
        {
          toolUseId,
          toolName: name,
          parts: [{ type: "text", text: call.output }],
          isError: call.is_error ?? false,
          ...(exitCode === undefined ? {} : { exitCode }),
        },
      ],
    });
  });
  const last = thoughtOf(calls[calls.length - 1]?.next_action ?? "");
  if (last !== "") push({ role: "assistant", parts: [{ type: "text", text: last }], toolCalls: [], toolResults: [] });
  return turns;
}
