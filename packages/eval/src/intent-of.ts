import { composeIntent } from "@loupe/client/intent";
import type { Trajectory } from "./corpus-row.js";

/**
 * The intent a runtime has when call `index` of a trajectory returns, composed as the runtimes'
 * intents are (`composeIntent`): the task, the agent's earlier steps (their next actions — thought
 * and call — before the one that issued this call; for a row recorded without them, its
 * `earlier_actions`), then the message that issued this call (the previous step's next action; for
 * a first row, its recorded `previous_action`). Never this step's own next action, which is what the
 * evidence is drawn from.
 */
export function intentOf(trajectory: Trajectory, index: number): string {
  const row = trajectory.rows[index];
  return row === undefined ? "" : composeIntent(row.task, issuingOf(trajectory, index), earlierOf(trajectory, index));
}

/** The intent as it was before the earlier steps joined it: the task and the message that issued call `index` alone. */
export function recentIntentOf(trajectory: Trajectory, index: number): string {
  const row = trajectory.rows[index];
  return row === undefined ? "" : composeIntent(row.task, issuingOf(trajectory, index));
}

/** The intent with call `index`'s own next action as its asking message (ViewContext.oracleIntent: a diagnostic ceiling). */
export function oracleIntentOf(trajectory: Trajectory, index: number): string {
  const row = trajectory.rows[index];
  return row === undefined ? "" : composeIntent(row.task, row.nextAction, [...earlierOf(trajectory, index), issuingOf(trajectory, index)]);
}

/**
 * The agent's earlier steps when call `index` returns: the next actions before the one that issued it;
 * for a row recorded without them (the first of its trajectory), its `earlier_actions`.
 */
function earlierOf(trajectory: Trajectory, index: number): readonly string[] {
  if (index > 1) return trajectory.rows.slice(0, index - 1).map((row) => row.nextAction);
  return trajectory.rows[index]?.earlierActions ?? [];
}

/** The message that issued call `index`: the previous step's next action; for a first row, its recorded `previous_action`. */
function issuingOf(trajectory: Trajectory, index: number): string {
  return index > 0 ? (trajectory.rows[index - 1]?.nextAction ?? "") : (trajectory.rows[index]?.previousAction ?? "");
}
