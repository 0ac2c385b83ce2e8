import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isCodexRolloutLine, rowsOfCodexRollout } from "./codex-rollout.js";
import { intentOf } from "./intent-of.js";
import { readCorpus } from "./read-corpus.js";
import { commandLineOf } from "./tool-call.js";

// Real program output placed in a rollout written the way Codex writes one: `{type, payload}` lines, the conversation's
// items under `response_item`, its own context in user messages, exec outputs under a header, two calls in one turn.

const listing = spawnSync("ls", ["-la", "/"], { encoding: "utf8" }).stdout;
const failure = spawnSync(process.execPath, ["-e", "function loadConfig() { throw new TypeError('missing database_url'); } loadConfig();"], {
  encoding: "utf8",
}).stderr;

const item = (payload: Record<string, unknown>): Record<string, unknown> => ({ timestamp: "2026-12-07T10:00:00Z", type: "response_item", payload });
const text = (role: string, value: string): Record<string, unknown> =>
  item({ type: "message", role, content: [{ type: role === "assistant" ? "output_text" : "input_text", text: value }] });
const call = (id: string, args: Record<string, unknown>): Record<string, unknown> =>
  item({ type: "function_call", name: "exec_command", arguments: JSON.stringify(args), call_id: id });
const exec = (id: string, code: number, output: string): Record<string, unknown> =>
  item({
    type: "function_call_output",
    call_id: id,
    output: `Chunk ID: 2887eb\nWall time: 0.0100 seconds\nProcess exited with code ${String(code)}\nOriginal token count: 9\nOutput:\n${output}`,
  });

const rollout = [
  { timestamp: "2026-12-07T10:00:00Z", type: "session_meta", payload: { id: "s-1", cwd: "/srv/app" } },
  { timestamp: "2026-12-07T10:00:00Z", type: "turn_context", payload: { model: "gpt-5.5", cwd: "/srv/app" } },
  text("user", "<environment_context>\n  <cwd>/srv/app</cwd>\n</environment_context>"),
  text("user", "loadConfig fails without DATABASE_URL; fix it"),
  item({ type: "reasoning", summary: [{ type: "summary_text", text: "Look at the root and run the app." }] }),
  call("c1", { cmd: "ls -la /" }),
  call("c2", { cmd: "node app.js" }),
  exec("c1", 0, listing),
  item({ type: "function_call_output", call_id: "c2", output: JSON.stringify({ output: failure, metadata: { exit_code: 1 } }) }),
  text("assistant", "The TypeError comes from loadConfig."),
  item({ type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch\n*** Update File: config.js\n*** End Patch", call_id: "c3" }),
  item({ type: "custom_tool_call_output", call_id: "c3", output: "Success. Updated the following files:\nM config.js" }),
  text("assistant", "Fixed; now the server, left running."),
  call("c4", { cmd: "node server.js" }),
  item({
    type: "function_call_output",
    call_id: "c4",
    output: "Chunk ID: 91ab02\nWall time: 10.0020 seconds\nProcess running with session ID 7\nOriginal token count: 4\nOutput:\nlistening on 8080\n",
  }),
  text("assistant", "It listens."),
];

describe("rowsOfCodexRollout()", () => {
  it("makes a row of each answered call followed by a turn: exit codes from the exec header or the older JSON, the next turn as next action", () => {
    const rows = rowsOfCodexRollout(rollout.map((line) => JSON.stringify(line)).join("\n"), "codex:s-1");
    assert.deepEqual(
      rows.map((row) => [row.step, row.tool, row.args, row.exitCode]),
      [
        [1, "exec_command", { cmd: "ls -la /" }, 0],
        [2, "exec_command", { cmd: "node app.js" }, 1],
        [3, "apply_patch", { input: "*** Begin Patch\n*** Update File: config.js\n*** End Patch" }, undefined],
        [4, "exec_command", { cmd: "node server.js" }, undefined],
      ],
    );
    const [first, second, third] = rows;
    assert.equal(first?.agentSystem, "codex (gpt-5.5)");
    assert.equal(first?.model, "gpt-5.5");
    assert.equal(first?.task, "loadConfig fails without DATABASE_URL; fix it", "Codex's own context is not the task");
    assert.equal(first?.output, listing);
    assert.equal(second?.output, failure);
    assert.equal(first?.nextAction, "The TypeError comes from loadConfig.\n[apply_patch] *** Begin Patch\n*** Update File: config.js\n*** End Patch");
    assert.equal(second?.nextAction, first?.nextAction, "calls of one turn share the turn after them");
    assert.equal(third?.nextAction, "Fixed; now the server, left running.\n[exec_command] node server.js");
    assert.equal(rows[3]?.output, "listening on 8080\n", "a command still running: its output without the header");
    assert.equal(third?.output, "Success. Updated the following files:\nM config.js");
  });

  it("records the turn that issued each call, so a call beside another never gets the next turn as its intent", () => {
    const rows = rowsOfCodexRollout(rollout.map((line) => JSON.stringify(line)).join("\n"), "codex:s-1");
    const issuing = "Look at the root and run the app.\n[exec_command] ls -la /\n[exec_command] node app.js";
    assert.deepEqual(
      rows.map((row) => row.previousAction),
      [issuing, issuing, rows[0]?.nextAction, rows[2]?.nextAction],
    );
    assert.deepEqual(rows[2]?.earlierActions, [issuing]);
    const trajectory = { agentSystem: "codex", id: "codex:s-1", rows };
    assert.doesNotMatch(intentOf(trajectory, 1), /comes from loadConfig/);
  });

  it("tells a rollout's lines from others'", () => {
    assert.equal(isCodexRolloutLine(rollout[0]), true);
    assert.equal(isCodexRolloutLine({ type: "user", message: {} }), false);
    assert.equal(isCodexRolloutLine({ type: "response_item" }), false);
  });
});

describe("commandLineOf()", () => {
  it("reads a shell call's command line from `command`, Codex's `cmd`, or an argument list", () => {
    assert.equal(commandLineOf("ls -la"), "ls -la");
    assert.equal(commandLineOf({ command: "ls -la" }), "ls -la");
    assert.equal(commandLineOf({ cmd: "seq 1 3" }), "seq 1 3");
    assert.equal(commandLineOf({ command: ["bash", "-lc", "grep -rn x ."] }), "grep -rn x .");
    assert.equal(commandLineOf({ command: ["/bin/zsh", "-c", "ls"] }), "ls");
    assert.equal(commandLineOf({ command: ["git", "status"] }), "git status");
    assert.equal(commandLineOf({ command: [1, 2] }), "");
    assert.equal(commandLineOf(null), "");
  });
});

describe("readCorpus() with a Codex rollout", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-codex-"));
    await writeFile(join(dir, "rollout-2026-12-07T10-00-00-s1.jsonl"), rollout.map((line) => JSON.stringify(line)).join("\n") + "\n");
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("reads a .jsonl whose first line is a rollout's as that rollout, named by the file", async () => {
    const corpus = await readCorpus([{ path: join(dir, "rollout-2026-12-07T10-00-00-s1.jsonl"), name: "2026/12/07/rollout-2026-12-07T10-00-00-s1.jsonl" }]);
    assert.deepEqual(
      corpus.trajectories.map((trajectory) => [trajectory.agentSystem, trajectory.id, trajectory.rows.length]),
      [["codex (gpt-5.5)", "codex:2026/12/07/rollout-2026-12-07T10-00-00-s1", 4]],
    );
  });
});
