import { AppError } from "@loupe/errors";
import type { FirstViewRecord } from "./first-view-record.js";
import { percent, textTable } from "./report-table.js";

/** What a comparison reads of a `loupe eval --views` record: `view` only for equality. */
export type ComparedView = Pick<FirstViewRecord, "policy" | "trajectory_id" | "step" | "output_kind" | "long" | "evidence" | "in_view" | "view">;

/** One output under one policy in two runs: the items its first view held in each. */
export interface ViewPair {
  readonly policy: string;
  readonly trajectoryId: string;
  readonly step: number;
  readonly kind: string;
  readonly long: boolean;
  readonly evidence: number;
  /** Items in view before and after; an output a run did not cut showed whole, so all its items. */
  readonly before: number;
  readonly after: number;
  readonly cutBefore: boolean;
  readonly cutAfter: boolean;
}

/** A policy's first views in two runs, compared output by output. */
export interface ViewComparison {
  readonly policy: string;
  /** Outputs either run cut. */
  readonly outputs: number;
  /** Of those, outputs whose view differs (or that one run alone cut). */
  readonly changed: number;
  readonly gained: number;
  readonly lost: number;
  /** The same over outputs over 8,000 characters (the first-view target's measure). */
  readonly longGained: number;
  readonly longLost: number;
  /** Outputs holding fewer items after, most lost first; then those holding more. */
  readonly losses: readonly ViewPair[];
  readonly gains: readonly ViewPair[];
}

const keyOf = (view: ComparedView): string => `${view.policy}\n${view.trajectory_id}\n${String(view.step)}`;

/**
 * Compares two runs' first views (`loupe eval --views` of the same corpus and split, before and after a
 * change), per policy in both runs: how many views changed, and the items each output's view gained or
 * lost. Pure.
 * @throws AppError `invalid_argument` when no policy is in both runs
 */
export function compareViews(before: Iterable<ComparedView>, after: Iterable<ComparedView>): ViewComparison[] {
  const earlier = new Map<string, ComparedView>();
  const policiesBefore = new Set<string>();
  for (const view of before) {
    earlier.set(keyOf(view), view);
    policiesBefore.add(view.policy);
  }
  const pairs = new Map<string, ViewPair[]>();
  const changed = new Map<string, number>();
  const add = (pair: ViewPair, differs: boolean): void => {
    const list = pairs.get(pair.policy) ?? [];
    list.push(pair);
    pairs.set(pair.policy, list);
    if (differs) changed.set(pair.policy, (changed.get(pair.policy) ?? 0) + 1);
  };
  const policiesAfter = new Set<string>();
  for (const view of after) {
    policiesAfter.add(view.policy);
    if (!policiesBefore.has(view.policy)) continue;
    const old = earlier.get(keyOf(view));
    earlier.delete(keyOf(view));
    add(pairOf(view, old?.in_view ?? view.evidence, view.in_view, old !== undefined, true), old === undefined || old.view !== view.view);
  }
  // Cut before and not after: shown whole after.
  for (const view of earlier.values()) if (policiesAfter.has(view.policy)) add(pairOf(view, view.in_view, view.evidence, true, false), true);
  const policies = [...policiesBefore].filter((policy) => policiesAfter.has(policy));
  if (policies.length === 0)
    throw new AppError("invalid_argument", `no policy is in both runs [before=${[...policiesBefore].join("|")}, after=${[...policiesAfter].join("|")}]`);
  return policies.map((policy) => summarize(policy, pairs.get(policy) ?? [], changed.get(policy) ?? 0));
}

function pairOf(view: ComparedView, before: number, after: number, cutBefore: boolean, cutAfter: boolean): ViewPair {
  const { policy, trajectory_id: trajectoryId, step, output_kind: kind, long, evidence } = view;
  return { policy, trajectoryId, step, kind, long, evidence, before, after, cutBefore, cutAfter };
}

function summarize(policy: string, pairs: readonly ViewPair[], changed: number): ViewComparison {
  let gained = 0;
  let lost = 0;
  let longGained = 0;
  let longLost = 0;
  for (const pair of pairs) {
    const more = Math.max(0, pair.after - pair.before);
    const fewer = Math.max(0, pair.before - pair.after);
    gained += more;
    lost += fewer;
    if (pair.long) {
      longGained += more;
      longLost += fewer;
    }
  }
  const order = (a: ViewPair, b: ViewPair): number => (a.trajectoryId < b.trajectoryId ? -1 : a.trajectoryId > b.trajectoryId ? 1 : a.step - b.step);
  const losses = pairs.filter((pair) => pair.after < pair.before).sort((a, b) => b.before - b.after - (a.before - a.after) || order(a, b));
  const gains = pairs.filter((pair) => pair.after > pair.before).sort((a, b) => b.after - b.before - (a.after - a.before) || order(a, b));
  return { policy, outputs: pairs.length, changed, gained, lost, longGained, longLost, losses, gains };
}

const signed = (value: number): string => (value > 0 ? `+${String(value)}` : String(value));

/** One output of a comparison, as the table lists it. */
function describePair(pair: ViewPair): string {
  const cut = pair.cutBefore && pair.cutAfter ? "" : pair.cutAfter ? ", cut after only" : ", cut before only";
  return `${pair.trajectoryId} step ${String(pair.step)} (${pair.kind}${pair.long ? ", long" : ""}${cut}): ${String(pair.before)} → ${String(pair.after)} of ${String(pair.evidence)}`;
}

/**
 * The comparisons as a table — per policy the outputs cut, views changed, items gained and lost (all, and
 * over 8,000 characters) — each followed by up to `show` of its outputs that lost items and that gained.
 */
export function formatViewComparison(comparisons: readonly ViewComparison[], show = 10): string {
  const header = ["policy", "outputs", "changed", "gained", "lost", "net", "long gained", "long lost", "long net"];
  const rows = comparisons.map((c) => [
    c.policy,
    String(c.outputs),
    `${String(c.changed)} (${percent(c.changed, c.outputs)})`,
    String(c.gained),
    String(c.lost),
    signed(c.gained - c.lost),
    String(c.longGained),
    String(c.longLost),
    signed(c.longGained - c.longLost),
  ]);
  const out = textTable("first views compared, output by output (items in view; an output one run did not cut counts as shown whole)", header, rows);
  for (const comparison of comparisons) {
    const listed = [
      ...comparison.losses.slice(0, show).map((pair) => `  lost   ${describePair(pair)}`),
      ...comparison.gains.slice(0, show).map((pair) => `  gained ${describePair(pair)}`),
    ];
    if (listed.length === 0) continue;
    out.push(`${comparison.policy}:`, ...listed);
    const more = Math.max(0, comparison.losses.length - show) + Math.max(0, comparison.gains.length - show);
    if (more > 0) out.push(`  … and ${String(more)} more outputs`);
    out.push("");
  }
  return out.join("\n").trimEnd();
}
