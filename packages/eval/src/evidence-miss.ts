import type { CorpusRow } from "./corpus-row.js";
import type { EvidenceItem } from "./extract-evidence.js";
import { issuingOf } from "./first-view-record.js";
import { LONG_OUTPUT_CHARS } from "./long-totals.js";

/**
 * One evidence item a policy's first view left out, with where it sits in the output and what the
 * agent had asked and did next: the material for tuning a projector on the dev split
 * (`loupe eval --misses FILE`, one JSON object a line).
 */
export interface EvidenceMiss {
  readonly policy: string;
  readonly agent_system: string;
  readonly trajectory_id: string;
  readonly step: number;
  /** The output's kind as the eval reads it (file_read, search, command, …). */
  readonly output_kind: string;
  readonly output_chars: number;
  readonly output_lines: number;
  /** Whether the output is one of those over 8,000 characters (the first-view target's measure). */
  readonly long: boolean;
  readonly item_kind: string;
  readonly item: string;
  /** The first output line holding the item (1-based); null when it spans lines. */
  readonly line: number | null;
  /** Lines from `line` to the nearest output line the view shows whole; null when none is shown or `line` is null. */
  readonly nearest_shown: number | null;
  /** Whether one recovery reached the item; null when the policy saved nothing to recover from. */
  readonly recovered: boolean | null;
  /** The end of the message that asked for the call (the intent past the task), at most 1,000 characters. */
  readonly issuing: string;
  /** The start of the agent's next action, where the item was drawn from, at most 1,000 characters. */
  readonly next_action: string;
}

const EXCERPT_CHARS = 1000;
// Lines this short (blank, a brace) are everywhere: showing one says nothing of where the view is.
const MIN_SHOWN_CHARS = 4;

/**
 * The misses of one first view: a function from an item the view left out (and whether a recovery reached
 * it) to its EvidenceMiss. Nothing is computed until a miss is asked for; the output's lines and the
 * view's shown lines are then split once per view, however many items it left out.
 */
export function viewMisses(
  policy: string,
  row: CorpusRow,
  kind: string,
  intent: string,
  view: string,
): (item: EvidenceItem, recovered: boolean | null) => EvidenceMiss {
  let lines: string[] | undefined;
  let shown: Set<string> | undefined;
  return (item, recovered) => {
    lines ??= row.output.split("\n");
    shown ??= new Set(view.split("\n").filter((line) => line.trim().length >= MIN_SHOWN_CHARS));
    const index = lines.findIndex((text) => text.includes(item.text));
    return {
      policy,
      agent_system: row.agentSystem,
      trajectory_id: row.trajectoryId,
      step: row.step,
      output_kind: kind,
      output_chars: row.output.length,
      output_lines: lines.length,
      long: row.output.length > LONG_OUTPUT_CHARS,
      item_kind: item.kind,
      item: item.text,
      line: index === -1 ? null : index + 1,
      nearest_shown: index === -1 ? null : nearestShown(lines, index, shown),
      recovered,
      issuing: issuingOf(row, intent),
      next_action: row.nextAction.slice(0, EXCERPT_CHARS),
    };
  };
}

/** Lines from `index` to the nearest line of `lines` that the view shows whole (`shown`); null when none. */
function nearestShown(lines: readonly string[], index: number, shown: ReadonlySet<string>): number | null {
  for (let distance = 0; distance < lines.length; distance++) {
    for (const at of [index - distance, index + distance]) {
      const line = lines[at];
      if (line !== undefined && shown.has(line)) return distance;
    }
  }
  return null;
}
