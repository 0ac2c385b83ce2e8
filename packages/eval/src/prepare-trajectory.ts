import type { TokenCounter } from "@loupe/projection";
import { argsText, type CorpusRow, type Trajectory } from "./corpus-row.js";
import { earlierEvidenceOf, type EarlierEvidenceItem } from "./earlier-evidence.js";
import { evidenceOf, extractEvidence, type EvidenceItem } from "./extract-evidence.js";
import { intentOf, oracleIntentOf, recentIntentOf } from "./intent-of.js";
import { kindOfRow } from "./kind-of-row.js";

/** A trajectory's rows with what every policy shares: output tokens, evidence, intent and kind. */
export interface PreparedTrajectory {
  readonly trajectory: Trajectory;
  readonly rows: ReadonlyArray<{
    readonly row: CorpusRow;
    readonly outputTokens: number;
    readonly evidence: readonly EvidenceItem[];
    /** Items of the next action drawn from earlier results only (see earlierEvidenceOf). */
    readonly earlier: readonly EarlierEvidenceItem[];
    readonly intent: string;
    /** The task and the issuing message alone (`intent=recent`). */
    readonly recentIntent: string;
    /** The intent with this call's own next action as its asking message (`intent=oracle`, a diagnostic ceiling). */
    readonly oracleIntent: string;
    readonly kind: string;
  }>;
}

/** Counts output tokens, finds evidence, the intent and the kind once per trajectory, for all policies. */
export function prepareTrajectory(trajectory: Trajectory, counter: TokenCounter): PreparedTrajectory {
  const outputs = trajectory.rows.map((row) => row.output);
  return {
    trajectory,
    rows: trajectory.rows.map((row, index) => {
      const intent = intentOf(trajectory, index);
      // The next action's items, found once for the call's own evidence and for what it takes from older results.
      const candidates = extractEvidence(row.nextAction);
      return {
        row,
        outputTokens: counter.count(row.output),
        evidence: evidenceOf({
          nextAction: row.nextAction,
          output: row.output,
          outputAsSeen: row.outputAsSeen,
          task: row.task,
          argsText: argsText(row),
          intent,
          candidates,
        }),
        earlier: earlierEvidenceOf({
          nextAction: row.nextAction,
          output: row.output,
          earlierOutputs: outputs.slice(0, index),
          task: row.task,
          argsText: argsText(row),
          intent,
          candidates,
        }),
        intent,
        recentIntent: recentIntentOf(trajectory, index),
        oracleIntent: oracleIntentOf(trajectory, index),
        kind: kindOfRow(row),
      };
    }),
  };
}
