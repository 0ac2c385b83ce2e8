import { createHash } from "node:crypto";
import type { LoupeClient } from "@loupe/client";
import { createTokenCounter, type TokenCounter } from "@loupe/projection";
import type { Trajectory } from "./corpus-row.js";
import type { EvidenceKind } from "./extract-evidence.js";
import { emptyFound, type Carried, type CompactionScore } from "./note-score.js";
import { replayTrajectoryAsTurns, type NoteReplayOptions } from "./note-replay.js";

/** Sums over compactions. */
export interface NoteTotals {
  trajectories: number;
  compactedTrajectories: number;
  compactions: number;
  prepared: number;
  noteTokens: number;
  coveredTokens: number;
  contextTokens: number;
  citedAddresses: number;
  addressReads: number;
  items: number;
  found: Record<Carried, number>;
  foundByKind: Partial<Record<EvidenceKind, Record<Carried, number>>>;
  recentTurns: number;
}

/** The note-quality results at one window. */
export interface NoteReport {
  readonly windowTokens: number;
  readonly pooled: NoteTotals;
  readonly bySystem: Record<string, NoteTotals>;
  readonly compactions: readonly CompactionScore[];
}

/** Options of {@link runNoteEval}. */
export interface RunNoteEvalOptions extends Omit<NoteReplayOptions, "counter" | "windowTokens"> {
  readonly windows: readonly number[];
  readonly counter?: TokenCounter;
  /** Trajectories replayed at once; default 4. */
  readonly concurrency?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

const emptyNoteTotals = (): NoteTotals => ({
  trajectories: 0,
  compactedTrajectories: 0,
  compactions: 0,
  prepared: 0,
  noteTokens: 0,
  coveredTokens: 0,
  contextTokens: 0,
  citedAddresses: 0,
  addressReads: 0,
  items: 0,
  found: emptyFound(),
  foundByKind: {},
  recentTurns: 0,
});

function add(totals: NoteTotals, score: CompactionScore): void {
  totals.compactions += 1;
  if (score.path === "prepared") totals.prepared += 1;
  totals.noteTokens += score.noteTokens;
  totals.coveredTokens += score.coveredTokens;
  totals.contextTokens += score.contextTokens;
  totals.citedAddresses += score.citedAddresses;
  totals.addressReads += score.addressReads;
  totals.items += score.items;
  for (const key of Object.keys(totals.found) as Carried[]) totals.found[key] += score.found[key];
  for (const [kind, found] of Object.entries(score.foundByKind) as Array<[EvidenceKind, Record<Carried, number>]>) {
    const sum = (totals.foundByKind[kind] ??= emptyFound());
    for (const key of Object.keys(sum) as Carried[]) sum[key] += found[key];
  }
  totals.recentTurns += score.recentTurns;
}

// Session ids of one run: the window and a digest of the trajectory (its agent system and id: ids are long paths, and two systems may share one).
const sessionOf = (window: number, trajectory: Trajectory): string =>
  `note-eval|${String(window)}|${createHash("sha256").update(`${trajectory.agentSystem}\n${trajectory.id}`).digest("hex").slice(0, 24)}`;

/**
 * Replays every trajectory as turns at each window (see `replayTrajectoryAsTurns`)
 * and sums the compactions' scores, pooled and per agent system.
 */
export async function runNoteEval(client: LoupeClient, trajectories: readonly Trajectory[], options: RunNoteEvalOptions): Promise<NoteReport[]> {
  const counter = options.counter ?? createTokenCounter("o200k_base");
  const jobs = options.windows.flatMap((window) => trajectories.map((trajectory) => ({ window, trajectory })));
  const results: Array<{ compacted: boolean; compactions: readonly CompactionScore[] }> = [];
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < jobs.length; index = next++) {
      const { window, trajectory } = jobs[index] as (typeof jobs)[number];
      results[index] = await replayTrajectoryAsTurns(client, trajectory, sessionOf(window, trajectory), { ...options, counter, windowTokens: window });
      options.onProgress?.(++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return options.windows.map((window) => {
    const pooled = emptyNoteTotals();
    const bySystem: Record<string, NoteTotals> = {};
    const compactions: CompactionScore[] = [];
    jobs.forEach((job, index) => {
      if (job.window !== window) return;
      const result = results[index] ?? { compacted: false, compactions: [] };
      const system = (bySystem[job.trajectory.agentSystem] ??= emptyNoteTotals());
      for (const totals of [pooled, system]) {
        totals.trajectories += 1;
        if (result.compacted) totals.compactedTrajectories += 1;
        for (const score of result.compactions) add(totals, score);
      }
      compactions.push(...result.compactions);
    });
    return { windowTokens: window, pooled, bySystem, compactions };
  });
}
