import type { LoupeClient } from "@loupe/client";
import { argsText, isShellCall, type CorpusRow, type Trajectory } from "./corpus-row.js";

/** A turn as AppendTurns takes it. */
export type TurnInit = NonNullable<Parameters<LoupeClient["appendTurns"]>[0]["turns"]>[number];

/** The turns one step of a trajectory appends: the call (with the thought that led to it) and its result. */
export interface ReplayStep {
  /** Index of the corpus row in the trajectory. */
  readonly rowIndex: number;
  readonly turns: readonly TurnInit[];
  /** The texts the step adds to the conversation (for local token estimates). */
  readonly texts: readonly string[];
}

/** Seq of the assistant turn of row `index` (seq 1 is the task). */
export const callSeq = (index: number): number => 2 + 2 * index;
/** Seq of the user turn carrying row `index`'s result. */
export const resultSeq = (index: number): number => 3 + 2 * index;

const textPart = (value: string): { content: { case: "text"; value: string } } => ({ content: { case: "text", value } });

function argsJsonOf(row: CorpusRow): string {
  if (isShellCall(row) && typeof row.args === "string") return JSON.stringify({ command: row.args });
  return JSON.stringify(row.args ?? {});
}

/**
 * A trajectory as conversation turns, one step per tool call: turn 1 is the
 * task (a user turn); row i adds an assistant turn (the previous row's next
 * action — the thought and action that led to this call — and the call) and a
 * user turn with the output as the agent saw it. The last row's next action
 * is the agent's answer to the last output and is not appended. Pure.
 */
export function replaySteps(trajectory: Trajectory): ReplayStep[] {
  const task = trajectory.rows[0]?.task ?? "";
  return trajectory.rows.map((row, index): ReplayStep => {
    const toolUseId = `call-${String(index + 1)}`;
    const thought = index === 0 ? "" : (trajectory.rows[index - 1]?.nextAction ?? "");
    const call: TurnInit = {
      seq: callSeq(index),
      role: "assistant",
      parts: thought === "" ? [] : [textPart(thought)],
      toolCalls: [{ toolUseId, name: row.tool, argsJson: argsJsonOf(row) }],
    };
    const output = row.outputAsSeen === "" ? "(no output)" : row.outputAsSeen;
    const result: TurnInit = {
      seq: resultSeq(index),
      role: "user",
      toolResults: [{ toolUseId, toolName: row.tool, parts: [textPart(output)], isError: row.isError, ...(row.exitCode === undefined ? {} : { exitCode: row.exitCode }) }],
    };
    const first: TurnInit[] = index === 0 ? [{ seq: 1, role: "user", parts: [textPart(task === "" ? "(no task text)" : task)] }] : [];
    const texts = [...(index === 0 ? [task] : []), thought, argsText(row), output];
    return { rowIndex: index, turns: [...first, call, result], texts };
  });
}
