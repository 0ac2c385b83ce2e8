import type { CorpusRow } from "./corpus-row.js";
import { LONG_OUTPUT_CHARS } from "./long-totals.js";

/**
 * One output a policy cut, as its first view showed it, beside what the agent asked and did next: the
 * material for reading views on the dev split (`loupe eval --views FILE`, one JSON object a line).
 */
export interface FirstViewRecord {
  readonly policy: string;
  readonly agent_system: string;
  readonly trajectory_id: string;
  readonly step: number;
  /** The output's kind as the eval reads it (file_read, search, command, …). */
  readonly output_kind: string;
  readonly output_chars: number;
  /** Whether the output is one of those over 8,000 characters (the first-view target's measure). */
  readonly long: boolean;
  readonly view_tokens: number;
  /** Evidence items of the next step drawn from this output, and how many of them the view shows. */
  readonly evidence: number;
  readonly in_view: number;
  /** The end of the message that asked for the call (the intent past the task), at most 1,000 characters. */
  readonly issuing: string;
  /** The start of the agent's next action, where the evidence was drawn from, at most 1,000 characters. */
  readonly next_action: string;
  /** The first view, whole. */
  readonly view: string;
}

const EXCERPT_CHARS = 1000;

/** The record of one cut output's first view (see FirstViewRecord). */
export function firstViewRecord(
  policy: string,
  row: CorpusRow,
  kind: string,
  intent: string,
  view: { readonly text: string; readonly tokens: number; readonly evidence: number; readonly inView: number },
): FirstViewRecord {
  return {
    policy,
    agent_system: row.agentSystem,
    trajectory_id: row.trajectoryId,
    step: row.step,
    output_kind: kind,
    output_chars: row.output.length,
    long: row.output.length > LONG_OUTPUT_CHARS,
    view_tokens: view.tokens,
    evidence: view.evidence,
    in_view: view.inView,
    issuing: issuingOf(row, intent),
    next_action: row.nextAction.slice(0, EXCERPT_CHARS),
    view: view.text,
  };
}

/** The end of the message that asked for the call: the intent past the task, at most 1,000 characters. */
export function issuingOf(row: CorpusRow, intent: string): string {
  return (intent.startsWith(row.task) ? intent.slice(row.task.length).trim() : intent).slice(-EXCERPT_CHARS);
}
