import type { CorpusRow } from "./corpus-row.js";
import type { EvidenceItem } from "./extract-evidence.js";
import { outputRecord, type OutputRecord } from "./output-record.js";

/**
 * One evidence item a policy's first view left out, with where it sits in the output and what the
 * agent had asked and did next: the material for tuning a projector on the dev split
 * (`loupe eval --misses FILE`, one JSON object a line).
 */
export interface EvidenceMiss extends OutputRecord {
  readonly output_lines: number;
  readonly item_kind: string;
  readonly item: string;
  /** The first output line holding the item (1-based); null when it spans lines. */
  readonly line: number | null;
  /** Lines from `line` to the nearest output line the view shows whole; null when none is shown or `line` is null. */
  readonly nearest_shown: number | null;
  /** Whether one recovery reached the item; null when the policy saved nothing to recover from. */
  readonly recovered: boolean | null;
}

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
      ...outputRecord(policy, row, kind, intent),
      output_lines: lines.length,
      item_kind: item.kind,
      item: item.text,
      line: index === -1 ? null : index + 1,
      nearest_shown: index === -1 ? null : nearestShown(lines, index, shown),
      recovered,
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
