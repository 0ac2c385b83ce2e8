import { createTokenCounter, type TokenCounter } from "@loupe/projection";
import type { Trajectory } from "./corpus-row.js";
import type { EvidenceMiss } from "./evidence-miss.js";
import type { Policy } from "./policy.js";
import type { FirstViewRecord } from "./first-view-record.js";
import { prepareTrajectory } from "./prepare-trajectory.js";
import { addTotals, emptyTotals, scoreTrajectory, type ScoreObservers, type Totals } from "./score-trajectory.js";

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  readonly policies: readonly Policy[];
  /** Default o200k_base. */
  readonly counter?: TokenCounter;
  /** Trajectories replayed at once (overlaps calls to Loupe); default 8. */
  readonly concurrency?: number;
  /** Called after each trajectory with the number done and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Told of the evidence items first views left out and of the first views that cut their output, a
   * trajectory's at a time (every policy, then step), in the order `trajectories` are given, as soon as those
   * before it are done: only the replays under way are held.
   */
  readonly onMisses?: (misses: readonly EvidenceMiss[]) => void;
  readonly onViews?: (views: readonly FirstViewRecord[]) => void;
}

/** One policy's results: pooled, per agent system and per trajectory. */
export interface PolicyReport {
  readonly policy: string;
  readonly pooled: Totals;
  readonly bySystem: Record<string, Totals>;
  readonly byTrajectory: ReadonlyArray<{ readonly agentSystem: string; readonly id: string; readonly totals: Totals }>;
}

/** The result of {@link runEval}. */
export interface EvalReport {
  readonly trajectories: number;
  readonly steps: number;
  /** Agent systems, sorted. */
  readonly systems: readonly string[];
  /** In the order the policies were given. */
  readonly policies: readonly PolicyReport[];
}

/**
 * Replays every trajectory under every policy and sums the metrics (see
 * `scoreTrajectory`) per policy: pooled, per agent system and per trajectory.
 * The per-trajectory lists follow the order of `trajectories`.
 */
export async function runEval(trajectories: readonly Trajectory[], options: RunEvalOptions): Promise<EvalReport> {
  const counter = options.counter ?? createTokenCounter("o200k_base");
  const scores: Totals[][] = trajectories.map(() => []);
  // Trajectories are replayed concurrently: each one's misses and views are kept apart, so they keep their order.
  const misses: EvidenceMiss[][] = trajectories.map(() => []);
  const views: FirstViewRecord[][] = trajectories.map(() => []);
  const finished = new Uint8Array(trajectories.length);
  let told = 0;
  // Hands over the misses and views of every finished trajectory with none unfinished before it.
  const tell = (): void => {
    for (; told < trajectories.length && finished[told] === 1; told++) {
      options.onMisses?.(misses[told] ?? []);
      options.onViews?.(views[told] ?? []);
      misses[told] = [];
      views[told] = [];
    }
  };
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < trajectories.length; index = next++) {
      const prepared = prepareTrajectory(trajectories[index] as Trajectory, counter);
      const observers: ScoreObservers = {
        ...(options.onMisses === undefined ? {} : { onMiss: (miss: EvidenceMiss): number => (misses[index] as EvidenceMiss[]).push(miss) }),
        ...(options.onViews === undefined ? {} : { onView: (view: FirstViewRecord): number => (views[index] as FirstViewRecord[]).push(view) }),
      };
      for (const policy of options.policies) (scores[index] as Totals[]).push(await scoreTrajectory(prepared, policy, counter, observers));
      finished[index] = 1;
      tell();
      options.onProgress?.(++done, trajectories.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  const systems = [...new Set(trajectories.map((trajectory) => trajectory.agentSystem))].sort();
  const policies = options.policies.map((policy, policyIndex): PolicyReport => {
    const pooled = emptyTotals();
    const bySystem: Record<string, Totals> = Object.fromEntries(systems.map((system) => [system, emptyTotals()]));
    const byTrajectory = trajectories.map((trajectory, index) => {
      const totals = scores[index]?.[policyIndex] ?? emptyTotals();
      addTotals(pooled, totals);
      addTotals(bySystem[trajectory.agentSystem] ?? emptyTotals(), totals);
      return { agentSystem: trajectory.agentSystem, id: trajectory.id, totals };
    });
    return { policy: policy.name, pooled, bySystem, byTrajectory };
  });
  return {
    trajectories: trajectories.length,
    steps: trajectories.reduce((sum, trajectory) => sum + trajectory.rows.length, 0),
    systems,
    policies,
  };
}
