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

/** How a policy clears old results from the history after their first views. */
export interface HistoryClearing {
  /**
   * How many of the oldest results a history no longer holds, given what each result in it added
   * (`perStep`, oldest first, the one just returned last).
   */
  clearedOf(perStep: readonly number[]): number;
  /** The tokens a cleared result still takes in the history (its placeholder). */
  readonly placeholderTokens: number;
}

/** A context policy: turns one tool output into its first view. */
export interface Policy {
  readonly name: string;
  /** `session` groups the calls of one trajectory (Loupe uses it); `context` is what the runtime knows (policies may ignore it). */
  view(row: CorpusRow, session: string, context?: ViewContext): Promise<PolicyView>;
  /** How the policy clears old results from the history after their first views (context editing); absent: never. */
  readonly clears?: HistoryClearing;
}
