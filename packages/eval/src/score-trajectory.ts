import type { TokenCounter } from "@loupe/projection";
import { viewMisses, type EvidenceMiss } from "./evidence-miss.js";
import { firstViewRecord, type FirstViewRecord } from "./first-view-record.js";
import { addLongTotals, emptyLongTotals, LONG_OUTPUT_CHARS, NAME_KINDS, type LongTotals } from "./long-totals.js";
import type { HistoryClearing, Policy } from "./policy.js";
import type { PreparedTrajectory } from "./prepare-trajectory.js";

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
  /** Items of next actions drawn from earlier results only (see earlierEvidenceOf). */
  earlierEvidence: number;
  /**
   * Of {@link Totals.earlierEvidence}, the items the history still holds when the next action is taken: in
   * the first view (or a recovery's answer) of an earlier result the policy has not cleared since.
   */
  earlierInHistory: number;
  /** Outputs longer than LONG_OUTPUT_CHARS (8,000 characters), cut or not: all of them, and per kind. */
  long: LongTotals;
  longByKind: Record<string, LongTotals>;
}

/** All-zero totals. */
export function emptyTotals(): Totals {
  return {
    trajectories: 0,
    steps: 0,
    historyTokens: 0,
    firstViewTokens: 0,
    outputTokens: 0,
    recoveryTokens: 0,
    cutOutputs: 0,
    savedOutputs: 0,
    evidence: 0,
    inView: 0,
    reachable: 0,
    recoveries: 0,
    cutEvidence: 0,
    cutInView: 0,
    earlierEvidence: 0,
    earlierInHistory: 0,
    long: emptyLongTotals(),
    longByKind: {},
  };
}

/** Adds `more` into `into` field by field and returns `into`. */
export function addTotals(into: Totals, more: Totals): Totals {
  for (const key of Object.keys(into) as Array<keyof Totals>) {
    if (key === "long" || key === "longByKind") continue;
    into[key] += more[key];
  }
  addLongTotals(into.long, more.long);
  for (const [kind, totals] of Object.entries(more.longByKind)) addLongTotals((into.longByKind[kind] ??= emptyLongTotals()), totals);
  return into;
}

/**
 * Tokens carried in history across a task: at step k the history holds the
 * results of steps 1…k−1, so result i (of n) is carried n − i times.
 * `perStep[i]` is what result i adds to history (first view + recovery answers).
 * With `clears`, at each step the oldest results it clears count as their
 * placeholder instead.
 */
export function historyTokensOf(perStep: readonly number[], clears?: HistoryClearing): number {
  let total = 0;
  if (clears === undefined) {
    perStep.forEach((tokens, index) => (total += tokens * (perStep.length - 1 - index)));
    return total;
  }
  for (let step = 1; step < perStep.length; step++) {
    const history = perStep.slice(0, step);
    const cleared = clears.clearedOf(history);
    total += history.slice(cleared).reduce((sum, tokens) => sum + tokens, 0) + cleared * clears.placeholderTokens;
  }
  return total;
}

/** Whether what an earlier result left in the history (undefined view: the output whole) holds `text`. */
function holds(result: { view: string | undefined; answers: string } | undefined, text: string): boolean {
  return result !== undefined && (result.view === undefined || result.view.includes(text) || result.answers.includes(text));
}

/** What {@link scoreTrajectory} tells as it goes. */
export interface ScoreObservers {
  /** Every evidence item a first view left out (see EvidenceMiss). */
  readonly onMiss?: (miss: EvidenceMiss) => void;
  /** Every first view that is not the output whole (see FirstViewRecord). */
  readonly onView?: (view: FirstViewRecord) => void;
}

/**
 * Replays one trajectory under `policy`: first views, evidence kept in view
 * (of all outputs, of the outputs it cut, and of the outputs over 8,000
 * characters, per kind), and one recovery per missing item when the policy
 * saved the output. `observers` are told of the items first views left out
 * and of the views that cut their output.
 */
export async function scoreTrajectory(prepared: PreparedTrajectory, policy: Policy, counter: TokenCounter, observers: ScoreObservers = {}): Promise<Totals> {
  const { onMiss, onView } = observers;
  const totals = emptyTotals();
  const perStep: number[] = [];
  // What each earlier result left in the history: its first view (undefined when whole) and its recoveries' answers.
  const carried: Array<{ view: string | undefined; answers: string }> = [];
  const session = `${policy.name}|${prepared.trajectory.agentSystem}|${prepared.trajectory.id}`;
  for (const { row, outputTokens, evidence, earlier, intent, recentIntent, oracleIntent, kind } of prepared.rows) {
    const view = await policy.view(row, session, { intent, recentIntent, oracleIntent });
    const whole = view.firstView === row.output;
    const firstViewTokens = whole ? outputTokens : counter.count(view.firstView);
    const long = row.output.length > LONG_OUTPUT_CHARS ? [totals.long, (totals.longByKind[kind] ??= emptyLongTotals())] : [];
    const missOf = viewMisses(policy.name, row, kind, intent, view.firstView);
    for (const bucket of long) {
      bucket.outputs++;
      bucket.viewTokens += firstViewTokens;
      bucket.evidence += evidence.length;
    }
    let recoveryTokens = 0;
    let answers = "";
    let inView = 0;
    for (const item of evidence) {
      totals.evidence++;
      if (!whole) totals.cutEvidence++;
      const name = NAME_KINDS.has(item.kind);
      if (name) for (const bucket of long) bucket.names++;
      if (view.firstView.includes(item.text)) {
        inView++;
        totals.inView++;
        totals.reachable++;
        if (!whole) totals.cutInView++;
        for (const bucket of long) {
          bucket.inView++;
          bucket.reachable++;
          if (name) bucket.namesInView++;
        }
        continue;
      }
      if (view.recover === undefined) {
        onMiss?.(missOf(item, null));
        continue;
      }
      const recovery = await view.recover(item.text);
      recoveryTokens += counter.count(recovery.answer);
      answers += `${recovery.answer}\n`;
      onMiss?.(missOf(item, recovery.found));
      if (!recovery.found) continue;
      totals.reachable++;
      totals.recoveries++;
      for (const bucket of long) bucket.reachable++;
    }
    if (!whole) onView?.(firstViewRecord(policy.name, row, kind, intent, { text: view.firstView, tokens: firstViewTokens, evidence: evidence.length, inView }));
    totals.steps++;
    totals.firstViewTokens += firstViewTokens;
    totals.outputTokens += outputTokens;
    totals.recoveryTokens += recoveryTokens;
    if (!whole) totals.cutOutputs++;
    if (view.saved) totals.savedOutputs++;
    perStep.push(firstViewTokens + recoveryTokens);
    carried.push({ view: whole ? undefined : view.firstView, answers });
    // The next action is taken with this result in the history too: what the policy clears counts it.
    const cleared = policy.clears?.clearedOf(perStep) ?? 0;
    for (const item of earlier) {
      totals.earlierEvidence++;
      if (item.steps.some((step) => step >= cleared && holds(carried[step], item.text))) totals.earlierInHistory++;
    }
  }
  totals.trajectories = 1;
  totals.historyTokens = historyTokensOf(perStep, policy.clears);
  return totals;
}
