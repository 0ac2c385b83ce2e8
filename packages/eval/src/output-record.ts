import type { CorpusRow } from "./corpus-row.js";
import { LONG_OUTPUT_CHARS } from "./long-totals.js";

/**
 * Where a record of `loupe eval --misses` or `--views` comes from: the policy, the call, its output, and
 * what the agent had asked and did next (one JSON object a line, snake_case as the corpus writes it).
 */
export interface OutputRecord {
  readonly policy: string;
  readonly agent_system: string;
  readonly trajectory_id: string;
  readonly step: number;
  /** The output's kind as the eval reads it (file_read, search, command, …). */
  readonly output_kind: string;
  readonly output_chars: number;
  /** Whether the output is one of those over 8,000 characters (the first-view target's measure). */
  readonly long: boolean;
  /** The end of the message that asked for the call (the intent past the task), at most 1,000 characters. */
  readonly issuing: string;
  /** The start of the agent's next action, where the evidence is drawn from, at most 1,000 characters. */
  readonly next_action: string;
}

const EXCERPT_CHARS = 1000;

/** The OutputRecord of one call replayed under `policy`. */
export function outputRecord(policy: string, row: CorpusRow, kind: string, intent: string): OutputRecord {
  return {
    policy,
    agent_system: row.agentSystem,
    trajectory_id: row.trajectoryId,
    step: row.step,
    output_kind: kind,
    output_chars: row.output.length,
    long: row.output.length > LONG_OUTPUT_CHARS,
    issuing: (intent.startsWith(row.task) ? intent.slice(row.task.length).trim() : intent).slice(-EXCERPT_CHARS),
    next_action: row.nextAction.slice(0, EXCERPT_CHARS),
  };
}
