import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { isAppError } from "@loupe/errors";
import { corpusRowFrom } from "./corpus-row.js";
import { readCorpus, splitOf } from "./read-corpus.js";

describe("readCorpus()", () => {
  let dir: string;
  let listing: string;
  let failure: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-corpus-"));
    await mkdir(join(dir, "tree/src/lib"), { recursive: true });
    await writeFile(join(dir, "tree/src/lib/parse_args.ts"), "export {};\n");
    await writeFile(join(dir, "tree/README.md"), "# t\n");
    listing = spawnSync("ls", ["-R", join(dir, "tree")], { encoding: "utf8" }).stdout;
    const run = spawnSync(process.execPath, ["-e", "function loadConfig() { throw new TypeError('missing database_url'); } loadConfig();"], {
      encoding: "utf8",
    });
    failure = run.stderr;
    const line = (fields: Record<string, unknown>): string =>
      JSON.stringify({ agent_system: "sys-a", trajectory_id: "t1", task: "fix it", tool: "bash", exit_code: 0, ...fields });
    const gz = [
      line({ step: 2, args: { command: "node -e …" }, output: failure, exit_code: 1, next_action: "TypeError in loadConfig" }),
      "not json",
      JSON.stringify({ agent_system: "sys-a", trajectory_id: "t1", step: "three", output: "", next_action: "" }),
      line({ step: 1, args: { command: "ls -R tree" }, output: listing, next_action: "open parse_args.ts" }),
      "",
    ].join("\n");
    await writeFile(join(dir, "a.jsonl.gz"), gzipSync(gz));
    await writeFile(
      join(dir, "b.jsonl"),
      line({ agent_system: "sys-b", trajectory_id: "t1", step: 1, args: "ls", output: listing, next_action: "done" }) + "\n",
    );
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("reads gzip and plain files, groups by (agent system, trajectory) ordered by step, and counts malformed lines", async () => {
    const corpus = await readCorpus([join(dir, "a.jsonl.gz"), join(dir, "b.jsonl")]);
    assert.equal(corpus.rows, 3);
    assert.equal(corpus.skipped, 2);
    assert.deepEqual(
      corpus.trajectories.map((trajectory) => [trajectory.agentSystem, trajectory.id, trajectory.rows.map((row) => row.step)]),
      [
        ["sys-a", "t1", [1, 2]],
        ["sys-b", "t1", [1]],
      ],
    );
    const [first, second] = corpus.trajectories[0]?.rows ?? [];
    assert.equal(first?.output, listing);
    assert.match(second?.output ?? "", /TypeError: missing database_url/);
    assert.equal(second?.exitCode, 1);
    assert.equal(first?.outputAsSeen, listing, "output_as_seen defaults to the output");
  });

  it("fails with not_found for a missing file and invalid_argument for a bad gzip", async () => {
    await assert.rejects(readCorpus([join(dir, "missing.jsonl")]), (error: unknown) => isAppError(error) && error.code === "not_found");
    await writeFile(join(dir, "bad.jsonl.gz"), "plain text");
    await assert.rejects(readCorpus([join(dir, "bad.jsonl.gz")]), (error: unknown) => isAppError(error) && error.code === "invalid_argument");
  });
});

describe("splitOf()", () => {
  it("reads a replayed row's earlier_actions (strings only), empty when absent", () => {
    const base = { agent_system: "a", trajectory_id: "t#replay:3", step: 1, tool: "bash", output: "o", next_action: "n" };
    assert.deepEqual(corpusRowFrom({ ...base, earlier_actions: ["[bash] ls", 7, "[bash] cat a.py"] })?.earlierActions, ["[bash] ls", "[bash] cat a.py"]);
    assert.deepEqual(corpusRowFrom(base)?.earlierActions, []);
  });

  it("is deterministic and splits about half and half", () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `mini-swe-agent:output/run/task-${String(index)}.traj.json`);
    const dev = ids.filter((id) => splitOf(id) === "dev").length;
    assert.ok(dev > 900 && dev < 1100, String(dev));
    assert.equal(splitOf(ids[7] ?? ""), splitOf(ids[7] ?? ""));
  });
});
