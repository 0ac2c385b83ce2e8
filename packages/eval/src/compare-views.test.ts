import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { compareViews, formatViewComparison, type ComparedView } from "./compare-views.js";

const view = (policy: string, trajectory: string, step: number, inView: number, text: string, extra: Partial<ComparedView> = {}): ComparedView => ({
  policy,
  trajectory_id: trajectory,
  step,
  output_kind: "file_read",
  long: true,
  evidence: 4,
  in_view: inView,
  view: text,
  ...extra,
});

describe("compareViews", () => {
  it("counts per policy the views that changed and the items each output gained or lost", () => {
    // Each output: policy, trajectory, step, then items in view and the view's text before and after.
    const outputs: ReadonlyArray<readonly [string, string, number, number, string, number, string, Partial<ComparedView>?]> = [
      ["core", "t1", 1, 2, "a", 4, "a2"],
      ["core", "t1", 2, 3, "b", 1, "b2"],
      ["core", "t2", 1, 1, "c", 2, "c2", { long: false }],
      ["core", "t3", 1, 4, "same", 4, "same"],
      ["blind", "t1", 1, 1, "x", 1, "x"],
    ];
    const before = outputs.map(([policy, trajectory, step, inView, text, , , extra]) => view(policy, trajectory, step, inView, text, extra));
    const after = outputs.map(([policy, trajectory, step, , , inView, text, extra]) => view(policy, trajectory, step, inView, text, extra));
    const [core, blind] = compareViews(before, after);
    assert.deepEqual(
      { policy: core?.policy, outputs: core?.outputs, changed: core?.changed, gained: core?.gained, lost: core?.lost },
      { policy: "core", outputs: 4, changed: 3, gained: 3, lost: 2 },
    );
    assert.deepEqual([core?.longGained, core?.longLost], [2, 2], "t2 is not long: its gain counts only in all");
    assert.deepEqual(
      core?.losses.map((pair) => [pair.trajectoryId, pair.step, pair.before, pair.after]),
      [["t1", 2, 3, 1]],
    );
    assert.deepEqual(
      core?.gains.map((pair) => [pair.trajectoryId, pair.step]),
      [
        ["t1", 1],
        ["t2", 1],
      ],
      "most gained first",
    );
    assert.deepEqual([blind?.changed, blind?.gained, blind?.lost], [0, 0, 0]);
  });

  it("takes an output one run did not cut as shown whole in that run", () => {
    const before = [view("core", "t1", 1, 1, "a"), view("core", "t2", 1, 4, "b")];
    const after = [view("core", "t1", 1, 1, "a"), view("core", "t3", 1, 3, "new")];
    const [core] = compareViews(before, after);
    assert.equal(core?.changed, 2);
    // t2 was cut before only (4 of 4 → whole: 4), t3 after only (whole: 4 → 3 of 4).
    assert.deepEqual(
      core?.losses.map((pair) => [pair.trajectoryId, pair.before, pair.after, pair.cutBefore, pair.cutAfter]),
      [["t3", 4, 3, false, true]],
    );
    assert.equal(core?.gained, 0);
  });

  it("compares only the policies both runs have, and refuses runs with none in common", () => {
    const comparisons = compareViews(
      [view("core", "t1", 1, 1, "a"), view("old", "t1", 1, 1, "a")],
      [view("core", "t1", 1, 2, "b"), view("new", "t1", 1, 1, "a")],
    );
    assert.deepEqual(
      comparisons.map((comparison) => comparison.policy),
      ["core"],
    );
    assert.throws(
      () => compareViews([view("a", "t1", 1, 1, "a")], [view("b", "t1", 1, 1, "a")]),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && error.message.includes("no policy is in both runs"),
    );
  });

  it("prints a row per policy, then the outputs that lost and gained, at most `show` of each", () => {
    const before = [view("core", "t1", 1, 3, "a"), view("core", "t1", 2, 3, "b"), view("core", "t1", 3, 1, "c")];
    const after = [view("core", "t1", 1, 1, "a2"), view("core", "t1", 2, 2, "b2"), view("core", "t1", 3, 2, "c2")];
    const text = formatViewComparison(compareViews(before, after), 1);
    const lines = text.split("\n");
    assert.match(lines[1] ?? "", /^policy +outputs +changed +gained +lost +net/);
    assert.match(lines[2] ?? "", /^core +3 +3 \(100\.0%\) +1 +3 +-2 +1 +3 +-2$/);
    assert.ok(lines.includes("  lost   t1 step 1 (file_read, long): 3 → 1 of 4"), text);
    assert.ok(!text.includes("t1 step 2"), "only the largest loss is listed");
    assert.ok(lines.includes("  gained t1 step 3 (file_read, long): 1 → 2 of 4"), text);
    assert.ok(lines.includes("  … and 1 more outputs"), text);
  });
});
