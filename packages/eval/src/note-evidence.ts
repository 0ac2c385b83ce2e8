import { argsText, type Trajectory } from "./corpus-row.js";
import { dropContained, extractEvidence, type EvidenceKind } from "./extract-evidence.js";

/** Kinds a handover must carry: identifiers, paths and errors (numbers alone are left out). */
const CARRIED_KINDS: ReadonlySet<EvidenceKind> = new Set(["path", "file-line", "identifier", "error-name", "quoted"]);

/** One item an action after a compaction uses from before it. */
export interface CarriedItem {
  readonly text: string;
  readonly kind: EvidenceKind;
  /** Row whose next action first uses it after the compaction. */
  readonly usedAtRow: number;
}

/**
 * The evidence a compaction after row `compactedAfter` must hand over: the
 * identifiers, paths, `file:line`s, error names and quoted strings of the next
 * actions of rows `compactedAfter` … `untilRow - 1` that occurred before the
 * compaction (in an output, the arguments of a call or an earlier next action)
 * and not in the task, and that did not occur again after the compaction
 * before the action used them (then the agent sees them anew). Each item
 * counts once, at its first use; an item inside a longer one is dropped. Pure.
 */
export function carriedEvidence(trajectory: Trajectory, compactedAfter: number, untilRow: number): CarriedItem[] {
  const rows = trajectory.rows;
  const task = rows[0]?.task ?? "";
  const before: string[] = [];
  for (let index = 0; index <= compactedAfter && index < rows.length; index++) {
    const row = rows[index];
    if (row === undefined) continue;
    before.push(argsText(row), row.outputAsSeen);
    if (index < compactedAfter) before.push(row.nextAction);
  }
  const seenBefore = (item: string): boolean => before.some((text) => text.includes(item));
  const since: string[] = [];
  const found = new Map<string, CarriedItem>();
  for (let index = compactedAfter; index < Math.min(untilRow, rows.length); index++) {
    const row = rows[index];
    if (row === undefined) continue;
    if (index > compactedAfter) since.push(argsText(row), row.outputAsSeen);
    for (const item of extractEvidence(row.nextAction)) {
      if (!CARRIED_KINDS.has(item.kind) || found.has(item.text)) continue;
      if (task.includes(item.text) || !seenBefore(item.text) || since.some((text) => text.includes(item.text))) continue;
      found.set(item.text, { text: item.text, kind: item.kind, usedAtRow: index });
    }
    since.push(row.nextAction);
  }
  // A path's file name, or an identifier inside a quoted error, is not a second item.
  return dropContained([...found.values()]);
}
