import type { Trajectory } from "./corpus-row.js";

/**
 * The intent a runtime has when call `index` of a trajectory returns: the
 * task, then the message that issued this call (the previous step's next
 * action: its thought and the call; for a first row, its recorded
 * `previous_action`). Never this step's own next action, which is what the
 * evidence is drawn from.
 */
export function intentOf(trajectory: Trajectory, index: number): string {
  const row = trajectory.rows[index];
  if (row === undefined) return "";
  const issuing = index > 0 ? (trajectory.rows[index - 1]?.nextAction ?? "") : row.previousAction;
  return issuing === "" ? row.task : `${row.task}\n\n${issuing}`;
}
