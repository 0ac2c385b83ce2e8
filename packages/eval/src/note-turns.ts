import type { LoupeClient } from "@loupe/client";
import type { CorpusRow, Trajectory } from "./corpus-row.js";

/** A turn as AppendTurns takes it. */
export type TurnInit = NonNullable<Parameters<LoupeClient["appendTurns"]>[0]["turns"]>[number];

/** The turns one step of a trajectory appends: the call (with the thought that led to it) and its result. */
export interface ReplayStep {
  /** Index of the corpus row in the trajectory. */
  readonly rowIndex: number;
  readonly turns: readonly TurnInit[];
  /** Each turn's text as the model reads it (the call turn: thought and arguments as sent), for local token counts. */
  readonly turnTexts: ReadonlyArray<{ readonly seq: number; readonly text: string }>;
}

/** Seq of the assistant turn of row `index` (seq 1 is the task). */
export const callSeq = (index: number): number => 2 + 2 * index;
/** Seq of the user turn carrying row `index`'s result. */
export const resultSeq = (index: number): number => 3 + 2 * index;

const textPart = (value: string): { content: { case: "text"; value: string } } => ({ content: { case: "text", value } });

// A command-line string (SWE-agent) is sent as a shell call's {command}.
function argsJsonOf(row: CorpusRow): string {
  return JSON.stringify(typeof row.args === "string" ? { command: row.args } : (row.args ?? {}));
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
    const argsJson = argsJsonOf(row);
    const call: TurnInit = {
      seq: callSeq(index),
      role: "assistant",
      parts: thought === "" ? [] : [textPart(thought)],
      toolCalls: [{ toolUseId, name: row.tool, argsJson }],
    };
    const output = row.outputAsSeen === "" ? "(no output)" : row.outputAsSeen;
    const result: TurnInit = {
      seq: resultSeq(index),
      role: "user",
      toolResults: [
        { toolUseId, toolName: row.tool, parts: [textPart(output)], isError: row.isError, ...(row.exitCode === undefined ? {} : { exitCode: row.exitCode }) },
      ],
    };
    const first: TurnInit[] = index === 0 ? [{ seq: 1, role: "user", parts: [textPart(task === "" ? "(no task text)" : task)] }] : [];
    const turnTexts = [
      ...(index === 0 ? [{ seq: 1, text: task }] : []),
      { seq: callSeq(index), text: `${thought}\n${argsJson}` },
      { seq: resultSeq(index), text: output },
    ];
    return { rowIndex: index, turns: [...first, call, result], turnTexts };
  });
}
