/**
 * The body of a projection thread (see count-pool.ts): counts each text it is sent exactly, in the
 * encoding named, or projects a result whole (projectHere), and answers with the count, the projection or
 * the error. Says it is ready once its counters are loaded, so the pool sends nothing to a thread still
 * starting.
 */
import { createTokenCounter, type ResultInput, type TokenEncoding } from "@loupe/projection";
import { parentPort } from "node:worker_threads";
import { projectHere, type PortableProjectOptions, type ProjectedHere } from "./project-here.js";

/** A count, as the pool posts it. */
export interface CountJob {
  id: number;
  kind: "count";
  text: string;
  encoding: TokenEncoding;
}

/** A whole projection, as the pool posts it (see projectHere). */
export interface ProjectJob {
  id: number;
  kind: "project";
  input: ResultInput;
  options: PortableProjectOptions;
  encoding: TokenEncoding;
  /** The result's UTF-8 bytes. */
  bytes: number;
  /** Whether counts in `encoding` are the model's own (else estimates). */
  exact: boolean;
}

/** What the thread posts back: ready once, then one answer per job. */
export type CountMessage = { ready: true } | { id: number; tokens: number } | { id: number; projected: ProjectedHere } | { id: number; error: string };

const counters = { o200k_base: createTokenCounter("o200k_base"), cl100k_base: createTokenCounter("cl100k_base") };
// Loading an encoding's ranks happens on its first use: do it before saying ready.
counters.o200k_base.count("ready");
counters.cl100k_base.count("ready");

function answer(job: CountJob | ProjectJob): CountMessage {
  if (job.kind === "count") return { id: job.id, tokens: counters[job.encoding].count(job.text) };
  return { id: job.id, projected: projectHere(job.input, job.options, counters[job.encoding], job.bytes, job.exact) };
}

const port = parentPort;
if (port !== null) {
  port.on("message", (job: CountJob | ProjectJob) => {
    try {
      port.postMessage(answer(job));
    } catch (error) {
      port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) } satisfies CountMessage);
    }
  });
  port.postMessage({ ready: true } satisfies CountMessage);
}
