import type { LongTotals } from "./long-totals.js";
import type { EvalReport, PolicyReport } from "./run-eval.js";

/** One trajectory's items for a paired comparison: how many, and how many each policy kept in view. */
export interface PairedCluster {
  readonly evidence: number;
  readonly a: number;
  readonly b: number;
}

/** The share in view of policy A less that of B (0–1), with its confidence interval. */
export interface PairedDifference {
  readonly items: number;
  readonly clusters: number;
  readonly difference: number;
  readonly low: number;
  readonly high: number;
}

/** Options of {@link pairedDifference}. */
export interface PairedDifferenceOptions {
  /** Bootstrap resamples (default 2,000). */
  readonly resamples?: number;
  /** Two-sided confidence (default 0.95). */
  readonly confidence?: number;
  /** Seed of the resampling (default 1): the same input gives the same interval. */
  readonly seed?: number;
}

/** A small deterministic generator (mulberry32): uniform in [0, 1). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The difference in share of items in view between two policies scored on the same items, with a
 * percentile bootstrap interval that resamples whole trajectories (items of one task are not
 * independent: the same file read, the same agent). Undefined when there are no items.
 */
export function pairedDifference(clusters: readonly PairedCluster[], options: PairedDifferenceOptions = {}): PairedDifference | undefined {
  const used = clusters.filter((cluster) => cluster.evidence > 0);
  const items = used.reduce((sum, cluster) => sum + cluster.evidence, 0);
  if (items === 0) return undefined;
  const difference = used.reduce((sum, cluster) => sum + cluster.a - cluster.b, 0) / items;
  const random = generator(options.seed ?? 1);
  const resamples = Math.max(1, options.resamples ?? 2000);
  const draws: number[] = [];
  for (let draw = 0; draw < resamples; draw++) {
    let evidence = 0;
    let gained = 0;
    for (let pick = 0; pick < used.length; pick++) {
      const cluster = used[Math.floor(random() * used.length)] as PairedCluster;
      evidence += cluster.evidence;
      gained += cluster.a - cluster.b;
    }
    draws.push(gained / evidence);
  }
  draws.sort((x, y) => x - y);
  const tail = (1 - (options.confidence ?? 0.95)) / 2;
  const at = (share: number): number => draws[Math.min(draws.length - 1, Math.max(0, Math.round(share * (draws.length - 1))))] ?? difference;
  return { items, clusters: used.length, difference, low: at(tail), high: at(1 - tail) };
}

/**
 * Per trajectory, the items of outputs over 8,000 characters (of one kind, or all) and how many of them
 * `a` and `b` kept in view. Both reports must come from one run (the same trajectories, in one order).
 */
export function longClusters(a: PolicyReport, b: PolicyReport, kind?: string): PairedCluster[] {
  const pick = (totals: PolicyReport["byTrajectory"][number]["totals"]): LongTotals | undefined => (kind === undefined ? totals.long : totals.longByKind[kind]);
  return a.byTrajectory.map((trajectory, index) => {
    const other = b.byTrajectory[index];
    if (other?.id !== trajectory.id || other.agentSystem !== trajectory.agentSystem) throw new Error(`paired reports differ at trajectory ${String(index)}`);
    const mine = pick(trajectory.totals);
    const theirs = pick(other.totals);
    return { evidence: mine?.evidence ?? 0, a: mine?.inView ?? 0, b: theirs?.inView ?? 0 };
  });
}

/** A policy against its blind cut over outputs over 8,000 characters: all items, and per kind. */
export interface BlindComparison {
  readonly policy: string;
  readonly all: PairedDifference | undefined;
  readonly byKind: Readonly<Record<string, PairedDifference | undefined>>;
}

/** Each policy of `report` that ran beside its blind cut (`blind:<policy>`), compared with it (see pairedDifference). */
export function blindComparisons(report: EvalReport): BlindComparison[] {
  return report.policies.flatMap((policy): BlindComparison[] => {
    const blind = report.policies.find((other) => other.policy === `blind:${policy.policy}`);
    if (blind === undefined) return [];
    const kinds = Object.keys(policy.pooled.longByKind).sort();
    return [
      {
        policy: policy.policy,
        all: pairedDifference(longClusters(policy, blind)),
        byKind: Object.fromEntries(kinds.map((kind) => [kind, pairedDifference(longClusters(policy, blind, kind))])),
      },
    ];
  });
}
