import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LONG_OUTPUT_CHARS } from "./long-totals.js";
import { readCorpus, splitOf } from "./read-corpus.js";
import { evalDataFiles } from "./testing/eval-data-files.js";

// The long outputs committed with the project: what `loupe eval --corpus packages/eval/data` reads in a clone.
const FILES = evalDataFiles();
// Each replayed row is one call of its own trajectory, named after the recorded one and its step.
const REPLAYED_ID = /^mini-swe-agent:.+\.traj\.json#replay:\d+$/;
// A command's last word: an absolute path other than the tree's (/testbed).
const OUTSIDE_THE_TREE = /\s'?\/(?!testbed)[^\s']*'?$/;

describe("the eval's committed long outputs", () => {
  it("read whole: every row valid, each its own trajectory of one replayed call, over 8,000 characters", async () => {
    assert.ok(FILES.length >= 2, `data files: ${FILES.join(", ")}`);
    const corpus = await readCorpus(FILES);
    assert.equal(corpus.skipped, 0);
    assert.equal(corpus.trajectories.length, corpus.rows, "one row a trajectory");
    assert.ok(corpus.rows >= 750, `${String(corpus.rows)} rows`);
    const splits = { dev: 0, test: 0 };
    for (const { id, agentSystem, rows } of corpus.trajectories) {
      const [row] = rows;
      assert.ok(row !== undefined);
      assert.match(id, REPLAYED_ID);
      assert.equal(agentSystem, "mini-swe-agent/replayed");
      assert.ok(row.output.length > LONG_OUTPUT_CHARS, `${id}: ${String(row.output.length)} characters`);
      assert.ok(row.nextAction.trim() !== "" && row.task.trim() !== "", `${id}: a task and a next action`);
      // The widened command is what the issuing message asks for, and the intent's middle part is there.
      const command = (row.args as { command?: unknown } | null)?.command;
      assert.ok(typeof command === "string" && row.previousAction.includes(command.replace(/^cd \/testbed && /, "")), `${id}: issued as run`);
      // A search reads the project's tree alone (one of the whole machine would print its own paths).
      assert.doesNotMatch(command, OUTSIDE_THE_TREE, `${id}: searched outside the tree`);
      splits[splitOf(id)]++;
    }
    // Both halves hold a good part of them: the split follows the recorded trajectories.
    assert.ok(splits.dev > 300 && splits.test > 300, JSON.stringify(splits));
  });
});
