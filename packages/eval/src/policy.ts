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

/** What a runtime knows when a tool returns, besides the call and its output. */
export interface ViewContext {
  /**
   * What the agent is looking for: the task and the message that issued this
   * call (the previous step's next action), never this call's own next action.
   */
  readonly intent: string;
  /** The task and the message that issued this call alone, without the agent's earlier steps. */
  readonly recentIntent?: string;
  /**
   * The intent with this call's own next action in place of the message that issued it: what no
   * runtime can know. A ceiling for diagnostics (`core:intent=oracle`: how much of the evidence the
   * selection keeps when the intent names it), never a result to report as Loupe's.
   */
  readonly oracleIntent?: string;
}

/** A context policy: turns one tool output into its first view. */
export interface Policy {
  readonly name: string;
  /** `session` groups the calls of one trajectory (Loupe uses it); `context` is what the runtime knows (policies may ignore it). */
  view(row: CorpusRow, session: string, context?: ViewContext): Promise<PolicyView>;
  /**
   * Tokens carried across a task, for a policy that edits the history after the first views (context
   * editing clears old results): `perStep[i]` is what result i added to it. Absent: every result stays
   * as it arrived (`historyTokensOf`).
   */
  readonly historyTokens?: (perStep: readonly number[]) => number;
  /**
   * How many of the oldest results the history no longer holds when the next action is taken, given what each
   * result so far — the one just returned last — added to it (`perStep`). Absent: none.
   */
  readonly clearedBefore?: (perStep: readonly number[]) => number;
}
