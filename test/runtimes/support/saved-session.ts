import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { commandLineOf, findCorpusFiles, readCorpus } from "@loupe/eval";
import { callTool, scriptSteps, type VendorScript } from "@loupe/testing";
import type { RuntimeRun } from "./run-runtime.js";

/** The task of the runs whose saved session `loupe eval` reads back. */
export const SESSION_PROMPT = "Find where value_1777 is computed.";

const MISSING = "ls /nonexistent-dir";

/** The two calls those runs make with the runtime's shell tool: a count, then a folder that is not there; then "Done.". */
export function sessionScript(tool: string, argsOf: (command: string) => Record<string, unknown>): VendorScript {
  return scriptSteps([callTool(tool, argsOf("seq 1 3"), "First a count."), callTool(tool, argsOf(MISSING), "Now a folder that is not there.")]);
}

/**
 * Reads the one saved session a run kept in its sandbox (`keepSandbox`) under `folder` of its HOME as `loupe eval
 * --corpus` does, and checks its rows: the two calls with their command lines and exit codes, the task, the count's
 * output, each call's next action (the model's next message) and the second call's issuing message. Removes the
 * sandbox.
 */
export async function checkSavedSession(
  run: RuntimeRun,
  folder: string,
  expected: { tool: string; agentSystem: RegExp; exitCodes: readonly [number, number] },
): Promise<void> {
  try {
    assert.equal(run.exitCode, 0, run.stderr);
    const files = await findCorpusFiles([join(run.home, folder)]);
    assert.equal(files.length, 1, `one saved session under ~/${folder}`);
    const corpus = await readCorpus(files);
    assert.equal(corpus.skipped, 0);
    assert.equal(corpus.trajectories.length, 1);
    assert.match(corpus.trajectories[0]?.agentSystem ?? "", expected.agentSystem);
    const rows = corpus.trajectories[0]?.rows ?? [];
    assert.deepEqual(
      rows.map((row) => [row.tool, commandLineOf(row.args), row.exitCode]),
      [
        [expected.tool, "seq 1 3", expected.exitCodes[0]],
        [expected.tool, MISSING, expected.exitCodes[1]],
      ],
    );
    const [count, missing] = rows;
    assert.equal(count?.task, SESSION_PROMPT);
    assert.equal(count?.output.trim(), "1\n2\n3");
    assert.ok(count?.nextAction.startsWith(`Now a folder that is not there.\n[${expected.tool}] ${MISSING}`), count?.nextAction);
    assert.equal(missing?.previousAction, count?.nextAction, "the message that issued the second call");
    assert.match(missing?.output ?? "", /^ls: cannot access '\/nonexistent-dir': No such file or directory\n?$/);
    assert.match(missing?.nextAction ?? "", /Done\./);
  } finally {
    await rm(dirname(run.home), { recursive: true, force: true });
  }
}
