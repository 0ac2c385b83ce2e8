import { callValues } from "@loupe/client/intent";
import type { CorpusRow } from "./corpus-row.js";

/** A call a runtime's saved session answered: what it called, and the answer as the session holds it. */
export interface SessionCall {
  readonly name: string;
  readonly args: unknown;
  readonly output: string;
  readonly exitCode: number | undefined;
  readonly isError: boolean;
}

/** One turn of the model in a saved session: what it wrote (as a corpus next action) and the calls of it that were answered. */
export interface SessionTurn {
  readonly action: string;
  readonly calls: readonly SessionCall[];
}

/**
 * A call as a next action's line: `[name] ` and its arguments' values (`callValues`: nested ones too, in order), one
 * a line — the paths, patterns and code the model wrote, whole (an intent's `callText` keeps 2,000 characters).
 */
export function callLine(name: string, args: unknown): string {
  return `[${name}] ${callValues(args).join("\n")}`;
}

/**
 * The corpus rows of a session's turns: a row for each answered call of a turn the model followed with another
 * that wrote something (its `next_action`), stepped from 1. Calls of one turn share the turn after them, so each
 * row records the turn that issued its call and the turns before it (`previous_action`, `earlier_actions`): the
 * previous row's next action is not what issued a call made beside another.
 */
export function rowsOfTurns(turns: readonly SessionTurn[], session: { agentSystem: string; trajectoryId: string; task: string; model: string }): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const earlier: string[] = [];
  turns.forEach((turn, index) => {
    const before = [...earlier];
    if (turn.action !== "") earlier.push(turn.action);
    const nextAction = turns[index + 1]?.action ?? "";
    if (nextAction === "") return;
    for (const call of turn.calls)
      rows.push({
        ...session,
        step: rows.length + 1,
        tool: call.name,
        args: call.args,
        output: call.output,
        outputAsSeen: call.output,
        exitCode: call.exitCode,
        isError: call.isError,
        nextAction,
        previousAction: turn.action,
        earlierActions: before,
        toolDetail: "",
      });
  });
  return rows;
}
