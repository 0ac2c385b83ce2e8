/**
 * The body of a token-counting thread (see count-pool.ts): counts each text it is sent exactly, in
 * the encoding named, and answers with the count or the error. Says it is ready once its counters are
 * loaded, so the pool sends nothing to a thread still starting.
 */
import { createTokenCounter, type TokenEncoding } from "@loupe/projection";
import { parentPort } from "node:worker_threads";

/** One job as the pool posts it. */
export interface CountJob {
  id: number;
  text: string;
  encoding: TokenEncoding;
}

/** What the thread posts back: ready once, then one answer per job. */
export type CountMessage = { ready: true } | { id: number; tokens: number } | { id: number; error: string };

const counters = { o200k_base: createTokenCounter("o200k_base"), cl100k_base: createTokenCounter("cl100k_base") };
// Loading an encoding's ranks happens on its first use: do it before saying ready.
counters.o200k_base.count("ready");
counters.cl100k_base.count("ready");

const port = parentPort;
if (port !== null) {
  port.on("message", (job: CountJob) => {
    try {
      port.postMessage({ id: job.id, tokens: counters[job.encoding].count(job.text) } satisfies CountMessage);
    } catch (error) {
      port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies CountMessage);
    }
  });
  port.postMessage({ ready: true } satisfies CountMessage);
}
