import { composeIntent } from "@loupe/client/intent";
import type { Trajectory } from "./corpus-row.js";

/**
 * The intent a runtime has when call `index` of a trajectory returns, composed as the runtimes'
 * intents are (`composeIntent`): the task, the agent's earlier steps (their next actions — thought
 * and call — before the one that issued this call; for a row that records them, its
 * `earlier_actions`), then the message that issued this call (the previous step's next action; for
 * a row that records it, its `previous_action`). Never this step's own next action, which is what the
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
 * The agent's earlier steps when call `index` returns: a row that records its own (`previous_action` or
 * `earlier_actions` set: a first row, or a call made beside others in one message) has them; else the next
 * actions before the one that issued it.
 */
function earlierOf(trajectory: Trajectory, index: number): readonly string[] {
  const row = trajectory.rows[index];
  if (row === undefined) return [];
  if (index <= 1 || row.previousAction !== "" || row.earlierActions.length > 0) return row.earlierActions;
  return trajectory.rows.slice(0, index - 1).map((earlier) => earlier.nextAction);
}

/**
 * The message that issued call `index`: its recorded `previous_action` when it has one (a first row, or a call
 * made beside others in one message, whose previous row's next action is the reply after both), else the
 * previous step's next action.
 */
function issuingOf(trajectory: Trajectory, index: number): string {
  const row = trajectory.rows[index];
  if (row === undefined) return "";
  return row.previousAction !== "" || index === 0 ? row.previousAction : (trajectory.rows[index - 1]?.nextAction ?? "");
}
