import type { CorpusRow } from "./corpus-row.js";

/** One recovery: whether it reached the evidence, and the answer the agent would read. */
export interface Recovery {
  readonly found: boolean;
  /** The text the recovery returns (it joins the history). */
  readonly answer: string;
}

/** What a policy puts in history for one tool output. */
export interface PolicyView {
  /** The text the agent sees first (and that stays in history). */
  readonly firstView: string;
  /** Whether the full output was kept somewhere the agent can read it back. */
  readonly saved: boolean;
  /** One recovery step for an evidence string; absent when nothing was saved. */
  readonly recover?: (evidence: string) => Promise<Recovery>;
}

/** A context policy: turns one tool output into its first view. */
export interface Policy {
  readonly name: string;
  /** `session` groups the calls of one trajectory (Loupe uses it). */
  view(row: CorpusRow, session: string): Promise<PolicyView>;
}
