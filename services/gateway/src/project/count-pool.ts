import { AppError } from "@loupe/errors";
import type { TokenEncoding } from "@loupe/projection";
import { startModuleWorker, type Logger } from "@loupe/runtime";
import { countMetric } from "@loupe/telemetry";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { CountJob, CountMessage, ProjectJob } from "./count-worker.js";
import type { ProjectedHere } from "./project-here.js";

/**
 * Exact token counts and whole projections made in worker threads: counting a long original (the usage
 * figures of a result that was cut) runs on another core while this thread projects and saves, and a call
 * that has others beside it projects on another core while this thread serves them.
 */
export interface TokenCountPool {
  /**
   * Counts `text` exactly in `encoding` in a worker thread. Undefined when no thread can take it now —
   * none is ready yet (the call starts one), every thread already has `maxQueued` jobs, or the pool is
   * closed — so the caller counts in its own thread instead.
   * @throws AppError `internal` (rejected promise) when the thread fails or exits, or the pool is closed, before answering
   */
  count(text: string, encoding: TokenEncoding): Promise<number> | undefined;
  /**
   * Projects a result whole in a thread (projectHere: the same view and counts as in the caller's thread),
   * or undefined when no thread can take it now, as for `count` (with `maxQueuedProjections` for `maxQueued`),
   * or when the result is over `maxProjectionBytes`.
   * @throws AppError `internal` (rejected promise) when the projection throws, the thread fails or exits, or the pool is closed
   */
  project(job: Omit<ProjectJob, "id" | "kind">): Promise<ProjectedHere> | undefined;
  /** Terminates every thread; what they still owed is rejected. */
  close(): Promise<void>;
}

/** Threads by default: all cores but one (this thread projects), at most 2. */
export const DEFAULT_COUNT_WORKERS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Jobs a thread may have waiting before counts go back to the caller's thread (a queue never grows without bound). */
export const DEFAULT_MAX_QUEUED = 2;
/**
 * Projections a thread may have waiting: more than counts, since a projection is sent only while other calls
 * keep this thread busy, and a thread that has used up its queue waits idle until this thread, busy, takes
 * its answers and posts more (256 callers of 10 KB: 423–445 calls/s with 2, 560–630 with 8, 530–560 with 16–32).
 */
export const DEFAULT_MAX_QUEUED_PROJECTIONS = 8;
/**
 * The largest result a thread projects; a larger one is left to the caller's thread. Copied to a thread, a
 * large result's projection runs in a second heap at the same time as the caller's: under a burst of 100
 * concurrent 1 MB results the process's peak above idle was 1.6–1.7× the echo's with every size sent to a
 * thread, 1.2× with this bound at 256 KB, 1.1–1.3× at 64 KB, as with no thread. (The counts of originals
 * above 64 KB are estimates anyway, so such a result's work in the caller's thread is its projection alone.)
 */
export const DEFAULT_MAX_PROJECTION_BYTES = 64 * 1024;
/** Threads that may fail before they are ready (a module that does not load) before the pool stops starting them. */
export const MAX_START_FAILURES = 3;

/** How a pool is made. */
export interface TokenCountPoolOptions {
  /** Threads at most (default {@link DEFAULT_COUNT_WORKERS}); 0: the pool never counts. */
  workers?: number;
  /** Counts one thread may have waiting (default {@link DEFAULT_MAX_QUEUED}). */
  maxQueued?: number;
  /** Jobs one thread may have waiting when a projection is sent (default {@link DEFAULT_MAX_QUEUED_PROJECTIONS}). */
  maxQueuedProjections?: number;
  /** The largest result (UTF-8 bytes) a thread projects (default {@link DEFAULT_MAX_PROJECTION_BYTES}). */
  maxProjectionBytes?: number;
  /** Told of each thread that fails or exits, and whether the pool gave up starting them (every count then stays with the caller). */
  onThreadFailure?: (error: Error, gaveUp: boolean) => void;
  /** The threads' module beside this one (default "count-worker"; tests name one that does not load). */
  module?: string;
}

interface Pending {
  resolve: (answer: number | ProjectedHere) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
}

/**
 * A pool of at most `workers` counting threads, each started on first need and kept (unreferenced while idle,
 * so it never holds the process open). A thread that fails is dropped with what it owed, and a fresh one is
 * started on the next need — unless MAX_START_FAILURES threads failed before they were ready: then none is
 * started again.
 */
export function createTokenCountPool(options: TokenCountPoolOptions = {}): TokenCountPool {
  const workers = options.workers ?? DEFAULT_COUNT_WORKERS;
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
  const maxQueuedProjections = options.maxQueuedProjections ?? DEFAULT_MAX_QUEUED_PROJECTIONS;
  const maxProjectionBytes = options.maxProjectionBytes ?? DEFAULT_MAX_PROJECTION_BYTES;
  const slots = new Set<Slot>();
  let nextId = 0;
  let closed = false;
  let startFailures = 0;

  /** Rejects what the thread owed and terminates it; resolves once it is gone. */
  async function drop(slot: Slot, error: Error): Promise<void> {
    if (!slots.delete(slot)) return;
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
    const terminated = slot.worker.terminate();
    if (!closed) {
      if (!slot.ready) startFailures++;
      options.onThreadFailure?.(error, startFailures >= MAX_START_FAILURES);
    }
    await terminated;
  }

  function start(): void {
    const worker = startModuleWorker(import.meta.url, options.module ?? "count-worker");
    worker.unref();
    const slot: Slot = { worker, ready: false, pending: new Map() };
    slots.add(slot);
    worker.on("message", (message: CountMessage) => {
      if ("ready" in message) {
        slot.ready = true;
        return;
      }
      const pending = slot.pending.get(message.id);
      slot.pending.delete(message.id);
      if (slot.pending.size === 0) worker.unref();
      if ("tokens" in message) pending?.resolve(message.tokens);
      else if ("projected" in message) pending?.resolve(message.projected);
      else pending?.reject(new AppError("internal", `token count failed in a worker: ${message.error}`));
    });
    worker.on("error", (error) => void drop(slot, new AppError("internal", "token-count worker failed", { cause: error })));
    worker.on("exit", (code) => void drop(slot, new AppError("internal", `token-count worker exited [code=${String(code)}]`)));
  }

  function freest(limit: number): Slot | undefined {
    let best: Slot | undefined;
    for (const slot of slots) if (slot.ready && (best === undefined || slot.pending.size < best.pending.size)) best = slot;
    return best !== undefined && best.pending.size < limit ? best : undefined;
  }

  /** Posts `job` to the freest ready thread; undefined when none can take it (see TokenCountPool.count). */
  function post<T extends number | ProjectedHere>(job: Omit<CountJob, "id"> | Omit<ProjectJob, "id">): Promise<T> | undefined {
    if (closed || workers <= 0 || startFailures >= MAX_START_FAILURES) return undefined;
    const slot = freest(job.kind === "count" ? maxQueued : maxQueuedProjections);
    if (slot === undefined) {
      // Every ready thread is full, or none is ready: start one if the pool may grow (none starting already).
      const starting = [...slots].some((candidate) => !candidate.ready);
      if (!starting && slots.size < workers) start();
      return undefined;
    }
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(id, { resolve: resolve as (answer: number | ProjectedHere) => void, reject });
      slot.worker.ref();
      slot.worker.postMessage({ ...job, id });
    });
  }

  return {
    count: (text, encoding) => post<number>({ kind: "count", text, encoding }),
    project: (job) => (job.bytes > maxProjectionBytes ? undefined : post<ProjectedHere>({ kind: "project", ...job })),
    async close() {
      closed = true;
      await Promise.all([...slots].map((slot) => drop(slot, new AppError("internal", "token-count pool closed"))));
    },
  };
}

let shared: TokenCountPool | undefined;

/**
 * The process's shared pool, made on first use with the first caller's options (its idle threads never keep
 * the process alive, so nothing needs to close it).
 */
export function defaultTokenCountPool(options: TokenCountPoolOptions = {}): TokenCountPool {
  shared ??= createTokenCountPool(options);
  return shared;
}

/**
 * Logs a counting thread's failure as a warning, with its cause, and counts it (`loupe.worker_threads.failed`,
 * `gave_up`): projections and counts go on in the call's thread, so without these nothing else shows it.
 */
export function countThreadFailed(logger: Logger): (error: Error, gaveUp: boolean) => void {
  return (error, gaveUp) => {
    countMetric("loupe.worker_threads.failed", { gave_up: gaveUp });
    logger.warn(
      gaveUp ? "token-count threads keep failing to start; counting in the call's thread from now on" : "a token-count thread failed; counting goes on",
      { error },
    );
  };
}
