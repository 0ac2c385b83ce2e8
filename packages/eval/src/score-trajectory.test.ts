import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Trajectory } from "./corpus-row.js";
import type { EvidenceMiss } from "./evidence-miss.js";
import type { Policy } from "./policy.js";
import { runEval } from "./run-eval.js";
import { prepareTrajectory } from "./prepare-trajectory.js";
import { historyTokensOf, scoreTrajectory } from "./score-trajectory.js";
import { fixtureRow, fixtureTrajectory, wordCounter } from "./testing/fixture-rows.js";
import { nonePolicy } from "./vendor-policies.js";

const words = wordCounter;

// Keeps the first line; saved; a recovery answers the lines holding the evidence.
const firstLine: Policy = {
  name: "first-line",
  view: async (row) => {
    const [first = ""] = row.output.split("\n");
    if (first === row.output) return { firstView: row.output, saved: false };
    const answer = row.output
      .split("\n")
      .filter((line) => line.includes("status_code") || line.includes("500"))
      .join("\n");
    return { firstView: first, saved: true, recover: async (evidence) => ({ found: row.output.includes(evidence), answer }) };
  },
};

const row = fixtureRow;

const trajectory: Trajectory = {
  agentSystem: "fixture",
  id: "t1",
  rows: [
    row(1, "load_config ok\nstatus_code 500", "The status_code was 500, look closer"), // 4 words; evidence status_code, 500
    row(2, "run_tests passed", "run_tests passed, finish"), // 2 words; evidence run_tests
    row(3, "done here now", "finish"), // 3 words; no evidence
  ],
};

describe("scoreTrajectory() on an output over 8,000 characters", () => {
  it("counts its names (paths, identifiers, error names) apart from its numbers and quoted strings", async () => {
    const filler = "plain filler line\n".repeat(500);
    const output = `load_config ok\n${filler}status_code 500 in src/app.py\n`;
    const long = prepareTrajectory({ agentSystem: "fixture", id: "t2", rows: [row(1, output, "Check status_code 500 in src/app.py")] }, words);
    // Evidence: status_code and src/app.py (names), 500 (a number); the first line holds none of them.
    const { long: totals, longByKind } = await scoreTrajectory(long, firstLine, words);
    assert.deepEqual(totals, { outputs: 1, viewTokens: 2, evidence: 3, inView: 0, reachable: 3, names: 2, namesInView: 0 });
    assert.deepEqual(Object.keys(longByKind), ["command"]);
    const lastLines: Policy = {
      name: "last-line",
      view: async (one) => ({ firstView: one.output.slice(one.output.lastIndexOf("status_code")), saved: false }),
    };
    const kept = (await scoreTrajectory(long, lastLines, words)).long;
    assert.deepEqual({ ...kept, viewTokens: 0 }, { outputs: 1, viewTokens: 0, evidence: 3, inView: 3, reachable: 3, names: 2, namesInView: 2 });
  });
});

describe("historyTokensOf()", () => {
  it("carries result i of n into the n − i later steps", () => {
    assert.equal(historyTokensOf([]), 0);
    assert.equal(historyTokensOf([7]), 0);
    assert.equal(historyTokensOf([6, 2, 3]), 6 * 2 + 2 * 1 + 3 * 0);
  });
});

describe("scoreTrajectory() on a 3-step trajectory", () => {
  const prepared = prepareTrajectory(trajectory, words);

  it("finds the evidence once for all policies", () => {
    assert.deepEqual(
      prepared.rows.map((prepared) => prepared.evidence.map((item) => item.text).sort()),
      [["500", "status_code"], ["run_tests"], []],
    );
  });

  it("none: every result whole, all evidence in view", async () => {
    // History: step 2 holds r1 (4), step 3 holds r1 + r2 (4 + 2) → 10.
    assert.deepEqual(await scoreTrajectory(prepared, nonePolicy, words), {
      trajectories: 1,
      steps: 3,
      historyTokens: 10,
      firstViewTokens: 9,
      outputTokens: 9,
      recoveryTokens: 0,
      cutOutputs: 0,
      savedOutputs: 0,
      evidence: 3,
      inView: 3,
      reachable: 3,
      recoveries: 0,
      cutEvidence: 0,
      cutInView: 0,
      earlierEvidence: 0,
      earlierInHistory: 0,
      long: { outputs: 0, viewTokens: 0, evidence: 0, inView: 0, reachable: 0, names: 0, namesInView: 0 },
      longByKind: {},
    });
  });

  it("a saving policy: first views, one recovery per missing item, answers carried in history", async () => {
    // Step 1: view "load_config ok" (2) + two recoveries answering "status_code 500" (2 each) → 6; step 2: 2; step 3: 3.
    // History: 6 × 2 + 2 × 1 + 3 × 0 = 14.
    assert.deepEqual(await scoreTrajectory(prepared, firstLine, words), {
      trajectories: 1,
      steps: 3,
      historyTokens: 14,
      firstViewTokens: 7,
      outputTokens: 9,
      recoveryTokens: 4,
      cutOutputs: 1,
      savedOutputs: 1,
      evidence: 3,
      inView: 1,
      reachable: 3,
      recoveries: 2,
      cutEvidence: 2,
      cutInView: 0,
      earlierEvidence: 0,
      earlierInHistory: 0,
      long: { outputs: 0, viewTokens: 0, evidence: 0, inView: 0, reachable: 0, names: 0, namesInView: 0 },
      longByKind: {},
    });
  });

  it("counts the evidence in view among cut outputs over the items of those outputs only", async () => {
    // Step 1 cut to "status_code" (1 of its 2 items); steps 2 and 3 whole (their 1 item in view, undiluting nothing).
    const firstWordOfLast: Policy = {
      name: "first-word-of-last-line",
      view: async (row) => {
        const last = row.output.split("\n").at(-1) ?? "";
        return row.output.includes("\n") ? { firstView: last.split(" ")[0] ?? "", saved: false } : { firstView: row.output, saved: false };
      },
    };
    const totals = await scoreTrajectory(prepared, firstWordOfLast, words);
    assert.deepEqual([totals.cutOutputs, totals.evidence, totals.inView, totals.cutEvidence, totals.cutInView], [1, 3, 2, 2, 1]);
  });
});

describe("runEval()", () => {
  it("sums per agent system and pooled, in policy order", async () => {
    const other: Trajectory = {
      ...trajectory,
      agentSystem: "other",
      id: "t2",
      rows: trajectory.rows.map((item) => ({ ...item, agentSystem: "other", trajectoryId: "t2" })),
    };
    const seen: number[] = [];
    const report = await runEval([trajectory, other], { policies: [nonePolicy, firstLine], counter: words, onProgress: (done) => seen.push(done) });
    assert.deepEqual(report.systems, ["fixture", "other"]);
    assert.deepEqual(
      report.policies.map((policy) => policy.policy),
      ["none", "first-line"],
    );
    const [none, first] = report.policies;
    assert.equal(none?.pooled.historyTokens, 20);
    assert.equal(first?.pooled.historyTokens, 28);
    assert.equal(first?.bySystem["other"]?.recoveries, 2);
    assert.deepEqual(
      first?.byTrajectory.map((entry) => entry.id),
      ["t1", "t2"],
    );
    assert.deepEqual(seen.sort(), [1, 2]);
    assert.equal(report.steps, 6);
  });

  it("hands over the items first views left out, in trajectory order, without changing the figures", async () => {
    const other: Trajectory = { ...trajectory, id: "t2", rows: trajectory.rows.map((item) => ({ ...item, trajectoryId: "t2" })) };
    const plain = await runEval([trajectory, other], { policies: [nonePolicy, firstLine], counter: words, concurrency: 2 });
    const misses: EvidenceMiss[] = [];
    const report = await runEval([trajectory, other], {
      policies: [nonePolicy, firstLine],
      counter: words,
      concurrency: 2,
      onMisses: (some) => misses.push(...some),
    });
    // "none" shows everything; "first-line" shows "load_config ok" of step 1 and misses status_code and 500 on line 2.
    assert.deepEqual(
      misses.map((miss) => [miss.trajectory_id, miss.policy, miss.step, miss.item, miss.line, miss.recovered]),
      [
        ["t1", "first-line", 1, "status_code", 2, true],
        ["t1", "first-line", 1, "500", 2, true],
        ["t2", "first-line", 1, "status_code", 2, true],
        ["t2", "first-line", 1, "500", 2, true],
      ],
    );
    const [miss] = misses;
    assert.equal(miss?.nearest_shown, 1);
    assert.equal(miss?.output_lines, 2);
    assert.equal(miss?.long, false);
    assert.equal(miss?.next_action, "The status_code was 500, look closer");
    assert.equal(report.policies[1]?.pooled.inView, plain.policies[1]?.pooled.inView);
  });
  it("hands over the first views that cut their output a trajectory at a time, in the order given, however the replays finish", async () => {
    const other: Trajectory = { ...trajectory, id: "t2", rows: trajectory.rows.map((item) => ({ ...item, trajectoryId: "t2" })) };
    // t1's views come slowly, so t2's replay finishes first.
    const slowFirst: Policy = {
      name: "first-line",
      view: async (row, session, context) => {
        if (row.trajectoryId === "t1") await new Promise((resolve) => setTimeout(resolve, 30));
        return firstLine.view(row, session, context);
      },
    };
    const batches: string[][] = [];
    const told: unknown[][] = [];
    const missedIn: string[] = [];
    const report = await runEval([trajectory, other], {
      policies: [nonePolicy, slowFirst],
      counter: words,
      concurrency: 2,
      onViews: (views) => {
        batches.push(views.map((view) => view.trajectory_id));
        told.push(...views.map((view) => [view.trajectory_id, view.policy, view.step, view.view, view.view_tokens, view.evidence, view.in_view]));
      },
      onMisses: (misses) => missedIn.push(...misses.map((miss) => miss.trajectory_id)),
      onProgress: (done) => assert.ok(done > 1 || batches.length === 0, "t2, done first, waits for t1"),
    });
    // "none" cuts nothing; "first-line" cuts step 1 alone (steps 2 and 3 are one line), and shows none of its two items.
    assert.deepEqual(batches, [["t1"], ["t2"]]);
    assert.deepEqual(missedIn, ["t1", "t1", "t2", "t2"], "the misses in the same order");
    assert.deepEqual(told, [
      ["t1", "first-line", 1, "load_config ok", 2, 2, 0],
      ["t2", "first-line", 1, "load_config ok", 2, 2, 0],
    ]);
    assert.equal(report.trajectories, 2);
  });
});

describe("scoreTrajectory() on items taken from older results", () => {
  it("counts one as in history when an older result's first view or recovery answer holds it", async () => {
    const older = fixtureTrajectory("t3", [
      row(1, "load_config ok\nstatus_code 500\nretry_count 7", "The status_code was 500"),
      row(2, "run_tests passed", "Now load_config and retry_count"),
    ]);
    const prepared = prepareTrajectory(older, words);
    assert.deepEqual(
      prepared.rows.map((one) => one.earlier.map((item) => item.text).sort()),
      [[], ["load_config", "retry_count"]],
    );
    // first-line keeps `load_config ok` in view; its recovery answered the status_code line, not retry_count's.
    const cut = await scoreTrajectory(prepared, firstLine, words);
    assert.deepEqual([cut.earlierEvidence, cut.earlierInHistory], [2, 1]);
    const whole = await scoreTrajectory(prepared, nonePolicy, words);
    assert.deepEqual([whole.earlierEvidence, whole.earlierInHistory], [2, 2]);
  });
});
