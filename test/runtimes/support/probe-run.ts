import type { TestContext } from "node:test";
import type { ScriptedRequest, ScriptedToolResult } from "@loupe/testing";
import type { RuntimeRun } from "./run-runtime.js";
import { locateRuntime, type RuntimeName } from "./runtimes.js";

/**
 * Skips the test (printing why) when the runtime's package could not be installed; returns true
 * when the test should go on.
 */
export async function runtimeAvailable(t: TestContext, runtime: RuntimeName): Promise<boolean> {
  const location = await locateRuntime(runtime);
  if ("path" in location) return true;
  const reason = `${runtime} is not available: ${location.missing}`;
  console.log(reason);
  t.skip(reason);
  return false;
}

/** The last request of the run that offered tools (the one that carries every result), or throws with what the run printed. */
export function lastScripted(run: RuntimeRun): ScriptedRequest {
  const view = run.requests.filter((entry) => entry.view !== undefined && !entry.view.side).at(-1)?.view;
  if (view === undefined)
    throw new Error(`no model request with tools was made (exit ${String(run.exitCode)}):\n${run.stderr.slice(-3000)}\n${run.stdout.slice(-3000)}`);
  return view;
}

/** The results the runtime sent for the calls to `tool`, in order. */
export function resultsFor(run: RuntimeRun, tool: string): ScriptedToolResult[] {
  return lastScripted(run).results.filter((result) => result.name === tool);
}

/** One line summarising a run, for the test log. */
export function describeRun(run: RuntimeRun): string {
  const routes = run.requests.map((entry) => `${entry.method} ${entry.path.split("?")[0] ?? ""}`);
  const counts = [...new Set(routes)].map((route) => `${route} ×${String(routes.filter((item) => item === route).length)}`);
  return `${run.runtime}: exit ${String(run.exitCode)} in ${String(run.elapsedMs)} ms; ${counts.join(", ")}; outbound ${run.outbound.length === 0 ? "none" : run.outbound.join(", ")}`;
}
