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
  if (row === undefined) return "";
  const earlier = index > 1 ? trajectory.rows.slice(0, index - 1).map((earlierRow) => earlierRow.nextAction) : row.earlierActions;
  return composeIntent(row.task, issuingOf(trajectory, index), earlier);
}

/** The intent as it was before the earlier steps joined it: the task and the message that issued call `index` alone. */
export function recentIntentOf(trajectory: Trajectory, index: number): string {
  const row = trajectory.rows[index];
  return row === undefined ? "" : composeIntent(row.task, issuingOf(trajectory, index));
}

/** The intent with call `index`'s own next action as its asking message (ViewContext.oracleIntent: a diagnostic ceiling). */
export function oracleIntentOf(trajectory: Trajectory, index: number): string {
  const row = trajectory.rows[index];
  if (row === undefined) return "";
  const earlier = index > 1 ? trajectory.rows.slice(0, index - 1).map((earlierRow) => earlierRow.nextAction) : row.earlierActions;
  return composeIntent(row.task, row.nextAction, [...earlier, issuingOf(trajectory, index)]);
}

/** The message that issued call `index`: the previous step's next action; for a first row, its recorded `previous_action`. */
function issuingOf(trajectory: Trajectory, index: number): string {
  return index > 0 ? (trajectory.rows[index - 1]?.nextAction ?? "") : (trajectory.rows[index]?.previousAction ?? "");
}
