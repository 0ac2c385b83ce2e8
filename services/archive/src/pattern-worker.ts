import { AppError } from "@loupe/errors";
import { availableParallelism } from "node:os";
import { startModuleWorker } from "@loupe/runtime";
import type { Worker } from "node:worker_threads";

/** A validated pattern as the worker compiles it. */
export interface CompiledPattern {
  source: string;
  flags: string;
}

/** One window of whole lines to match. */
export interface MatchJob {
  /** UTF-8 bytes of `lineCount` whole lines ("\n"-separated; the last may lack its "\n"). */
  bytes: Uint8Array;
  lineCount: number;
  /** Window-relative index of the first line to match (earlier lines are context only). */
  startAt: number;
  /** Stop after this many matching lines. */
  limit: number;
  pattern: CompiledPattern;
  /** `performance.now()` value at which matching is stopped. */
  deadlineAt: number;
  signal?: AbortSignal;
}

/** What matching a window found: `scannedLines` lines (window-relative) were fully matched. */
export interface MatchOutcome {
  scannedLines: number;
  /** Matching lines, in order: window-relative line index and the UTF-16 index of the first match in it. */
  matches: Array<{ line: number; index: number }>;
  stoppedBy: "end" | "limit" | "deadline";
}

/** Matches lines in worker threads, so a slow pattern never blocks the event loop. */
export interface PatternMatcher {
  /**
   * Matches one window of lines. At `deadlineAt` the worker is terminated and the outcome says how far it got.
   * @throws AppError `deadline_exceeded` (no worker was free before the deadline), `cancelled` (signal), `internal` (worker died)
   */
  match(job: MatchJob): Promise<MatchOutcome>;
  /** Terminates every worker. */
  close(): Promise<void>;
}

/** Largest `limit` a job may ask for (the size of each worker's shared result area). */
export const MAX_MATCHES_PER_JOB = 1000;
/**
 * Workers that may match at once (default): all cores but one, at most 4, so hostile patterns can never take
 * the CPU the event loop needs; more searches wait for a worker (the wait counts against their deadline).
 */
export const DEFAULT_MAX_WORKERS = Math.max(1, Math.min(4, availableParallelism() - 1));

interface Slot {
  worker: Worker;
  state: Int32Array;
}

function createSlot(): Slot {
  // The worker module: pattern-match-worker.ts (its .js when compiled).
  const worker = startModuleWorker(import.meta.url, "pattern-match-worker");
  worker.unref();
  return { worker, state: new Int32Array(new SharedArrayBuffer(4 * (2 + 2 * MAX_MATCHES_PER_JOB))) };
}

function readOutcome(state: Int32Array, scannedLines: number, stoppedBy: MatchOutcome["stoppedBy"]): MatchOutcome {
  const count = Atomics.load(state, 1);
  const matches: MatchOutcome["matches"] = [];
  for (let position = 0; position < count; position++) {
    const line = state[2 + 2 * position] ?? 0;
    // At the deadline, a match of the line being matched may already be written: that line is not done.
    if (line < scannedLines) matches.push({ line, index: state[3 + 2 * position] ?? 0 });
  }
  return { scannedLines, matches, stoppedBy };
}

/**
 * Creates a pool of at most `maxWorkers` (default {@link DEFAULT_MAX_WORKERS}) matcher threads, started on first use and kept idle
 * between jobs (a fresh worker costs tens of milliseconds; a reused one well under one). A worker stopped
 * at a deadline is terminated and replaced by a fresh one on demand.
 */
export function createPatternMatcher(options: { maxWorkers?: number } = {}): PatternMatcher {
  const maxWorkers = options.maxWorkers ?? DEFAULT_MAX_WORKERS;
  const idle: Slot[] = [];
  const waiters: Array<() => void> = [];
  const all = new Set<Slot>();
  let busy = 0;

  async function acquire(deadlineAt: number): Promise<Slot> {
    while (busy >= maxWorkers) {
      const remaining = deadlineAt - performance.now();
      if (remaining <= 0) throw new AppError("deadline_exceeded", "no pattern matcher was free before the deadline");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    busy++;
    const slot = idle.pop() ?? createSlot();
    all.add(slot);
    return slot;
  }

  function release(slot: Slot, reusable: boolean): void {
    busy--;
    if (reusable) idle.push(slot);
    else {
      all.delete(slot);
      void slot.worker.terminate();
    }
    waiters.shift()?.();
  }

  return {
    async match(job) {
      const slot = await acquire(job.deadlineAt);
      Atomics.store(slot.state, 0, job.startAt);
      Atomics.store(slot.state, 1, 0);
      const limit = Math.min(job.limit, MAX_MATCHES_PER_JOB);
      return await new Promise<MatchOutcome>((resolve, reject) => {
        const finish = (reusable: boolean, settle: () => void): void => {
          clearTimeout(timer);
          job.signal?.removeEventListener("abort", onAbort);
          slot.worker.off("message", onMessage).off("error", onError).off("exit", onError);
          // Read shared results before terminating, so nothing the worker wrote is lost.
          settle();
          release(slot, reusable);
        };
        const onMessage = (scanned: number): void => finish(true, () => resolve(readOutcome(slot.state, scanned, scanned < job.lineCount ? "limit" : "end")));
        const onError = (error: unknown): void => finish(false, () => reject(new AppError("internal", "pattern matcher failed", { cause: error })));
        const onAbort = (): void => finish(false, () => reject(new AppError("cancelled", "search cancelled")));
        const timer = setTimeout(
          () => finish(false, () => resolve(readOutcome(slot.state, Atomics.load(slot.state, 0), "deadline"))),
          Math.max(0, job.deadlineAt - performance.now()),
        );
        slot.worker.on("message", onMessage).on("error", onError).on("exit", onError);
        if (job.signal?.aborted) return onAbort();
        job.signal?.addEventListener("abort", onAbort);
        slot.worker.postMessage({
          bytes: job.bytes,
          lineCount: job.lineCount,
          startAt: job.startAt,
          limit,
          source: job.pattern.source,
          flags: job.pattern.flags,
          shared: slot.state.buffer,
        });
      });
    },
    async close() {
      idle.length = 0;
      await Promise.all([...all].map((slot) => slot.worker.terminate()));
      all.clear();
    },
  };
}

let shared: PatternMatcher | undefined;

/** The process's shared matcher, created on first use (its idle workers never keep the process alive). */
export function defaultPatternMatcher(): PatternMatcher {
  shared ??= createPatternMatcher();
  return shared;
}
