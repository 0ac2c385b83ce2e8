import assert from "node:assert/strict";
import {
  callTool,
  startScriptedVendor,
  scriptSteps,
  type ScriptedRequest,
  type ScriptedToolResult,
  type ScriptedVendor,
  type VendorScript,
} from "@loupe/testing";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../../support/embedded-loupe.js";
import { continuationsIn, type Continuation } from "./continuations.js";
import { proxyUpstreams } from "./loupe-wiring.js";
import { lastScripted } from "./probe-run.js";
import type { RuntimeRun } from "./run-runtime.js";

/** A scripted vendor and an embedded Loupe whose vendor proxy forwards to it. */
export interface Suite {
  vendor: ScriptedVendor;
  loupe: EmbeddedLoupe;
  close(): Promise<void>;
}

/** Starts the vendor, then Loupe (`loupe serve` from source) with every vendor route pointed at it. */
export async function startSuite(): Promise<Suite> {
  const vendor = await startScriptedVendor({ script: scriptSteps([]) });
  const loupe = await startEmbeddedLoupe(proxyUpstreams(vendor.url));
  return {
    vendor,
    loupe,
    async close() {
      await loupe.stop();
      await vendor.close();
    },
  };
}

/** Which continuation a recovery step takes: the first one in the first result of `tool` that has one (after `skip` such results). */
export interface ContinuationSource {
  tool: string;
  skip?: number;
}

/** The continuation a model would copy from what it received, or throws naming what was there. */
export function continuationFrom(request: ScriptedRequest, source: ContinuationSource): Continuation {
  const carrying = request.results.filter((result) => result.name === source.tool && continuationsIn(result.text).length > 0);
  const [continuation] = continuationsIn(carrying[source.skip ?? 0]?.text ?? "");
  if (continuation === undefined) throw new Error(`no continuation in the results of ${source.tool}`);
  return continuation;
}

/** A script step calling Loupe's read_result (by the runtime's name for it) with a continuation taken from a result the model received. */
export function recoverStep(readResultTool: string, source: ContinuationSource): VendorScript {
  return (request) => callTool(readResultTool, continuationFrom(request, source));
}

/** The results the runtime sent back for `tool`, in order (from the run's last model request), and the calls' arguments. */
export function results(run: RuntimeRun, tool: string): ScriptedToolResult[] {
  return lastScripted(run).results.filter((result) => result.name === tool);
}

/** The arguments of the run's calls to `tool`, in order. */
export function callArgs(run: RuntimeRun, tool: string): Array<Record<string, unknown>> {
  return lastScripted(run)
    .calls.filter((call) => call.name === tool)
    .map((call) => call.args as Record<string, unknown>);
}

/**
 * Checks that each of the given results (by call id) reached the vendor with the same text on every
 * model request after it first appeared: what a vendor's prompt cache needs.
 */
export function checkSameBytes(run: RuntimeRun, callIds: readonly string[]): void {
  const requests = run.requests.flatMap((entry) => (entry.view === undefined || entry.view.side ? [] : [entry.view]));
  for (const callId of callIds) {
    const texts = requests.flatMap((request) => request.results.filter((result) => result.callId === callId).map((result) => result.text));
    assert.ok(texts.length >= 2, `result ${callId} was sent on at least two requests (${String(texts.length)})`);
    for (const text of texts) assert.equal(text, texts[0], `result ${callId} keeps its bytes`);
  }
}

/** The text before a runtime's trailing reminder (Claude Code appends `<system-reminder>` blocks to every result). */
export function withoutReminders(text: string): string {
  const at = text.indexOf("\n\n<system-reminder>");
  return at < 0 ? text : text.slice(0, at);
}

/** Where the suite's Loupe log stands now: pass it to {@link loupeProblems} once a run ends. */
export const logMark = (suite: Suite): number => suite.loupe.process.lines.length;

/**
 * The warnings and errors the suite's Loupe logged since `mark`, one a line (level, message, fields), for a
 * run's diagnostics: a cut that failed open or a hook call Loupe refused then shows why in the test's output.
 */
export function loupeProblems(suite: Suite, mark: number): string {
  const problems = suite.loupe.process.lines.slice(mark).flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry["level"] !== "warn" && entry["level"] !== "error") return [];
      const { time: _time, service: _service, ...rest } = entry;
      return [JSON.stringify(rest)];
    } catch {
      return [];
    }
  });
  return problems.length === 0 ? "loupe logged no warning or error" : `loupe logged:\n${problems.join("\n")}`;
}
