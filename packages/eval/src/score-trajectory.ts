import type { TokenCounter } from "@loupe/projection";
import { argsText, type CorpusRow, type Trajectory } from "./corpus-row.js";
import { evidenceOf, type EvidenceItem } from "./extract-evidence.js";
import type { Policy } from "./policy.js";

/** Sums of one policy over some trajectories (all counts; tokens are o200k). */
export interface Totals {
  trajectories: number;
  steps: number;
  /** Σ over steps of the tokens of all earlier results as they sit in history (first views + recovery answers). */
  historyTokens: number;
  /** Σ of first-view tokens. */
  firstViewTokens: number;
  /** Σ of the full outputs' tokens. */
  outputTokens: number;
  /** Σ of the recovery answers' tokens. */
  recoveryTokens: number;
  /** Outputs whose first view differs from the output. */
  cutOutputs: number;
  /** Outputs the policy saved for recovery. */
  savedOutputs: number;
  /** Evidence items (see `evidenceOf`). */
  evidence: number;
  /** Items present in the first view. */
  inView: number;
  /** Items in the first view or reached by one recovery. */
  reachable: number;
  /** Items not in the first view that one recovery reached. */
  recoveries: number;
  /**
   * Items of the outputs the policy did not show whole (first view ≠ output):
   * where a policy's choices show, undiluted by the outputs that fit.
   */
  cutEvidence: number;
  /** Of {@link Totals.cutEvidence}, the items present in the first view. */
  cutInView: number;
}

/** A trajectory's rows with what every policy shares: output tokens and evidence. */
export interface PreparedTrajectory {
  readonly trajectory: Trajectory;
  readonly rows: ReadonlyArray<{ readonly row: CorpusRow; readonly outputTokens: number; readonly evidence: readonly EvidenceItem[] }>;
}

/** All-zero totals. */
export function emptyTotals(): Totals {
  return { trajectories: 0, steps: 0, historyTokens: 0, firstViewTokens: 0, outputTokens: 0, recoveryTokens: 0, cutOutputs: 0, savedOutputs: 0, evidence: 0, inView: 0, reachable: 0, recoveries: 0, cutEvidence: 0, cutInView: 0 };
}

/** Adds `more` into `into` field by field and returns `into`. */
export function addTotals(into: Totals, more: Totals): Totals {
  for (const key of Object.keys(into) as Array<keyof Totals>) into[key] += more[key];
  return into;
}

/**
 * Tokens carried in history across a task: at step k the history holds the
 * results of steps 1…k−1, so result i (of n) is carried n − i times.
 * `perStep[i]` is what result i adds to history (first view + recovery answers).
 */
export function historyTokensOf(perStep: readonly number[]): number {
  let total = 0;
  perStep.forEach((tokens, index) => (total += tokens * (perStep.length - 1 - index)));
  return total;
}

/** Counts output tokens and finds evidence once per trajectory, for all policies. */
export function prepareTrajectory(trajectory: Trajectory, counter: TokenCounter): PreparedTrajectory {
  return {
    trajectory,
    rows: trajectory.rows.map((row) => ({
      row,
      outputTokens: counter.count(row.output),
      evidence: evidenceOf({ nextAction: row.nextAction, output: row.output, outputAsSeen: row.outputAsSeen, task: row.task, argsText: argsText(row) }),
    })),
  };
}

/**
 * Replays one trajectory under `policy`: first views, evidence kept in view
 * (of all outputs, and of the outputs it cut), and one recovery per missing
 * item when the policy saved the output.
 */
export async function scoreTrajectory(prepared: PreparedTrajectory, policy: Policy, counter: TokenCounter): Promise<Totals> {
  const totals = emptyTotals();
  const perStep: number[] = [];
  const session = `${policy.name}|${prepared.trajectory.agentSystem}|${prepared.trajectory.id}`;
  for (const { row, outputTokens, evidence } of prepared.rows) {
    const view = await policy.view(row, session);
    const whole = view.firstView === row.output;
    const firstViewTokens = whole ? outputTokens : counter.count(view.firstView);
    let recoveryTokens = 0;
    for (const item of evidence) {
      totals.evidence++;
      if (!whole) totals.cutEvidence++;
      if (view.firstView.includes(item.text)) {
        totals.inView++;
        totals.reachable++;
        if (!whole) totals.cutInView++;
        continue;
      }
      if (view.recover === undefined) continue;
      const recovery = await view.recover(item.text);
      recoveryTokens += counter.count(recovery.answer);
      if (!recovery.found) continue;
      totals.reachable++;
      totals.recoveries++;
    }
    totals.steps++;
    totals.firstViewTokens += firstViewTokens;
    totals.outputTokens += outputTokens;
    totals.recoveryTokens += recoveryTokens;
    if (!whole) totals.cutOutputs++;
    if (view.saved) totals.savedOutputs++;
    perStep.push(firstViewTokens + recoveryTokens);
  }
  totals.trajectories = 1;
  totals.historyTokens = historyTokensOf(perStep);
  return totals;
}
