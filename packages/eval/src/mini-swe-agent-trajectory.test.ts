import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { rowsOfMiniSweAgentTrajectory } from "./mini-swe-agent-trajectory.js";
import { readCorpus } from "./read-corpus.js";

// Real program output placed in trajectories written the way mini-SWE-agent saves them: format 1 (a THOUGHT and a
// bash block, observations as user messages, long outputs cut by the harness to their two ends) and format 1.1
// (tool calls, observations as tool messages keeping the raw output).

const listing = spawnSync("ls", ["-la", "/"], { encoding: "utf8" }).stdout;
const failure = spawnSync(process.execPath, ["-e", "function loadConfig() { throw new TypeError('missing database_url'); } loadConfig();"], {
  encoding: "utf8",
}).stderr;

const observation = (code: number, output: string): string => `<returncode>${code}</returncode>\n<output>\n${output}</output>`;
const task =
  "<pr_description>\nConsider the following PR description:\nloadConfig fails without DATABASE_URL\n</pr_description>\n\n<instructions>…</instructions>";

const formatOne = {
  trajectory_format: "mini-swe-agent-1",
  info: { config: { model: { model_name: "google/gemini-3-pro-preview" } } },
  messages: [
    { role: "system", content: "You are a helpful assistant …" },
    { role: "user", content: task },
    { role: "assistant", content: "THOUGHT: List the root first.\n\n```bash\nls -la /\n```" },
    { role: "user", content: observation(0, listing) },
    { role: "assistant", content: "I will answer without a command." },
    { role: "user", content: "Please always provide EXACTLY ONE action in triple backticks, found 0 actions." },
    { role: "assistant", content: "THOUGHT: Run it.\n\n```bash\nnode -e 'loadConfig()'\n```" },
    {
      role: "user",
      content: `<returncode>1</returncode>\n<warning>\nThe output of your last command was too long.\n</warning><output_head>\n${failure.slice(0, 40)}</output_head>\n<elided_chars>\n12 characters elided\n</elided_chars>\n<output_tail>\n${failure.slice(-40)}</output_tail>`,
    },
    { role: "assistant", content: "THOUGHT: The TypeError comes from loadConfig.\n\n```bash\ngrep -rn loadConfig src\n```" },
  ],
};

const formatOneOne = {
  trajectory_format: "mini-swe-agent-1.1",
  messages: [
    { role: "system", content: "…" },
    { role: "user", content: [{ type: "text", text: "Fix loadConfig." }] },
    { role: "assistant", content: null, tool_calls: [{ function: { name: "bash", arguments: JSON.stringify({ command: "ls -la /" }) } }] },
    { role: "tool", content: observation(0, listing.slice(0, 50)), extra: { raw_output: listing } },
    { role: "assistant", content: null, tool_calls: [{ function: { name: "bash", arguments: JSON.stringify({ command: "cat app.py" }) } }] },
  ],
};

describe("rowsOfMiniSweAgentTrajectory()", () => {
  it("reads format 1: the task inside the PR description, THOUGHT and command as the next action, the harness's two ends as the output", () => {
    const rows = rowsOfMiniSweAgentTrajectory(formatOne, "mini-swe-agent:run/a.traj.json");
    assert.ok(rows);
    assert.equal(rows.length, 2, "the command-less reply and its format error make no row");
    const [first, second] = rows;
    assert.equal(first?.agentSystem, "mini-swe-agent (gemini-3-pro-preview)");
    assert.equal(first?.model, "google/gemini-3-pro-preview");
    assert.equal(first?.trajectoryId, "mini-swe-agent:run/a.traj.json");
    assert.equal(first?.task, "loadConfig fails without DATABASE_URL");
    assert.deepEqual(first?.args, { command: "ls -la /" });
    assert.equal(first?.output, listing);
    assert.equal(first?.exitCode, 0);
    assert.equal(first?.nextAction, "I will answer without a command.");
    assert.deepEqual([first?.step, second?.step], [1, 2]);
    assert.equal(second?.exitCode, 1);
    assert.equal(second?.output, `${failure.slice(0, 40)}\n${failure.slice(-40)}`);
    assert.equal(second?.outputAsSeen, second?.output);
    assert.equal(second?.nextAction, "The TypeError comes from loadConfig.\n[bash] grep -rn loadConfig src");
  });

  it("reads format 1.1: commands from tool calls, the raw output the tool message keeps", () => {
    const rows = rowsOfMiniSweAgentTrajectory(formatOneOne, "t");
    assert.equal(rows?.length, 1);
    assert.equal(rows?.[0]?.agentSystem, "mini-swe-agent");
    assert.equal(rows?.[0]?.task, "Fix loadConfig.");
    assert.equal(rows?.[0]?.output, listing);
    assert.equal(rows?.[0]?.nextAction, "[bash] cat app.py");
  });

  it("refuses what is not a mini-SWE-agent trajectory", () => {
    assert.equal(rowsOfMiniSweAgentTrajectory({ messages: [] }, "t"), undefined);
    assert.equal(rowsOfMiniSweAgentTrajectory({ trajectory_format: "other", messages: [] }, "t"), undefined);
    assert.equal(rowsOfMiniSweAgentTrajectory([], "t"), undefined);
  });
});

describe("readCorpus() with trajectory files", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-traj-"));
    await writeFile(join(dir, "a.traj.json"), JSON.stringify(formatOne));
    await writeFile(join(dir, "b.traj.json"), JSON.stringify(formatOneOne));
    await writeFile(join(dir, "c.traj.json"), "{ not json");
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("names a trajectory by the name it is given, or a bare path by its base name, and skips a file that is not one", async () => {
    const corpus = await readCorpus([{ path: join(dir, "a.traj.json"), name: "runs/a.traj.json" }, join(dir, "b.traj.json"), join(dir, "c.traj.json")]);
    assert.deepEqual(
      corpus.trajectories.map((trajectory) => [trajectory.agentSystem, trajectory.id, trajectory.rows.length]),
      [
        ["mini-swe-agent (gemini-3-pro-preview)", "mini-swe-agent:runs/a.traj.json", 2],
        ["mini-swe-agent", "mini-swe-agent:b.traj.json", 1],
      ],
    );
    assert.equal(corpus.rows, 3);
    assert.equal(corpus.skipped, 1);
  });
});
