import type { CorpusRow } from "./corpus-row.js";
import { outputRecord, type OutputRecord } from "./output-record.js";

/**
 * One output a policy cut, as its first view showed it, beside what the agent asked and did next: the
 * material for reading views on the dev split (`loupe eval --views FILE`, one JSON object a line).
 */
export interface FirstViewRecord extends OutputRecord {
  readonly view_tokens: number;
  /** Evidence items of the next step drawn from this output, and how many of them the view shows. */
  readonly evidence: number;
  readonly in_view: number;
  /** The first view, whole. */
  readonly view: string;
}

/** The record of one cut output's first view (see FirstViewRecord). */
export function firstViewRecord(
  policy: string,
  row: CorpusRow,
  kind: string,
  intent: string,
  view: { readonly text: string; readonly tokens: number; readonly evidence: number; readonly inView: number },
): FirstViewRecord {
  return { ...outputRecord(policy, row, kind, intent), view_tokens: view.tokens, evidence: view.evidence, in_view: view.inView, view: view.text };
}
