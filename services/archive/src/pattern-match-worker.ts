/**
 * The body of a pattern-matcher thread (see pattern-worker.ts): matches each line of a job's
 * window against its regular expression, writing progress and matches into the shared Int32 area
 * as it goes — [0] the line being matched (then the lines scanned), [1] the matches so far, then
 * (line, UTF-16 index) pairs — so the main thread learns how far it got even after terminating
 * it at a deadline; posts the lines scanned when the window is done.
 */
import { parentPort } from "node:worker_threads";

/** One job as the main thread posts it. */
export interface WorkerJob {
  bytes: Uint8Array;
  lineCount: number;
  startAt: number;
  limit: number;
  source: string;
  flags: string;
  shared: SharedArrayBuffer;
}

const decoder = new TextDecoder();
let key = "";
let regex: RegExp | undefined;

/** Matches one window; returns the lines scanned. */
export function matchWindow(job: WorkerJob): number {
  const state = new Int32Array(job.shared);
  if (regex === undefined || key !== `${job.flags}/${job.source}`) {
    regex = new RegExp(job.source, job.flags);
    key = `${job.flags}/${job.source}`;
  }
  const lines = decoder.decode(job.bytes).split("\n");
  let count = 0;
  let line = job.startAt;
  for (; line < job.lineCount && count < job.limit; line++) {
    Atomics.store(state, 0, line);
    let text = lines[line] ?? "";
    if (text.endsWith("\r")) text = text.slice(0, -1);
    const index = text.search(regex);
    if (index !== -1) {
      state[2 + 2 * count] = line;
      state[3 + 2 * count] = index;
      count++;
      Atomics.store(state, 1, count);
    }
  }
  Atomics.store(state, 0, line);
  return line;
}

parentPort?.on("message", (job: WorkerJob) => parentPort?.postMessage(matchWindow(job)));
