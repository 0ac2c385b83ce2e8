import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { emptyLongTotals } from "./long-totals.js";
import { longClusters, pairedDifference, type PairedCluster } from "./paired-difference.js";
import { formatDifference, formatLongTable } from "./report-long.js";
import type { EvalReport, PolicyReport } from "./run-eval.js";
import { emptyTotals, type Totals } from "./score-trajectory.js";

const same = (count: number, evidence: number, inView: number): PairedCluster[] => Array.from({ length: count }, () => ({ evidence, a: inView, b: inView }));

describe("pairedDifference()", () => {
  it("is nothing without items, and zero with a zero-wide interval for two policies that keep the same items", () => {
    assert.equal(pairedDifference([]), undefined);
    assert.equal(pairedDifference([{ evidence: 0, a: 0, b: 0 }]), undefined);
    assert.deepEqual(pairedDifference(same(20, 4, 2)), { items: 80, clusters: 20, difference: 0, low: 0, high: 0 });
  });

  it("leaves zero out when one policy keeps more items in most trajectories", () => {
    const clusters = Array.from({ length: 30 }, (_, index) => ({ evidence: 5, a: 4, b: index % 5 === 0 ? 4 : 2 }));
    const difference = pairedDifference(clusters);
    assert.ok(difference !== undefined);
    assert.ok(Math.abs(difference.difference - (24 * 2) / 150) < 1e-9);
    assert.ok(difference.low > 0 && difference.high > difference.low, JSON.stringify(difference));
    assert.match(formatDifference(difference), /^\+32\.0 \[\+\d+\.\d, \+\d+\.\d\] of 150 better$/);
  });

  it("keeps zero in when the gain comes from one trajectory of many (trajectories are resampled whole)", () => {
    const clusters = [{ evidence: 10, a: 10, b: 0 }, ...same(29, 10, 5)];
    const difference = pairedDifference(clusters);
    assert.ok(difference !== undefined && difference.difference > 0.03);
    assert.ok(difference.low <= 0 && difference.high > 0, JSON.stringify(difference));
    assert.doesNotMatch(formatDifference(difference), /better|worse/);
  });

  it("gives the same interval for the same input (seeded), and says too few under ten trajectories", () => {
    const clusters = Array.from({ length: 12 }, (_, index) => ({ evidence: 3, a: index % 3, b: 1 }));
    assert.deepEqual(pairedDifference(clusters), pairedDifference(clusters));
    assert.match(formatDifference(pairedDifference(same(9, 2, 0).map((cluster) => ({ ...cluster, a: 2 })))), / too few$/);
    assert.equal(formatDifference(undefined), "-");
  });
});

const withLong = (inView: number, kind: string): Totals => ({
  ...emptyTotals(),
  long: { ...emptyLongTotals(), outputs: 1, evidence: 4, inView, reachable: 4 },
  longByKind: { [kind]: { ...emptyLongTotals(), outputs: 1, evidence: 4, inView, reachable: 4 } },
});
const policyReport = (policy: string, inView: (index: number) => number, ids = 12): PolicyReport => {
  const byTrajectory = Array.from({ length: ids }, (_, index) => ({
    agentSystem: "sys",
    id: `t${String(index)}`,
    totals: withLong(inView(index), "file_read"),
  }));
  const pooled = emptyTotals();
  for (const { totals } of byTrajectory) {
    pooled.long.evidence += totals.long.evidence;
    pooled.longByKind["file_read"] = { ...emptyLongTotals(), evidence: pooled.long.evidence };
  }
  return { policy, pooled, bySystem: { sys: pooled }, byTrajectory };
};

describe("longClusters() and the blind section of formatLongTable()", () => {
  it("pairs trajectory by trajectory, per kind or all, and refuses reports of different runs", () => {
    const core = policyReport("core", () => 3);
    const blind = policyReport("blind:core", () => 1);
    assert.deepEqual(longClusters(core, blind)[0], { evidence: 4, a: 3, b: 1 });
    assert.deepEqual(longClusters(core, blind, "search")[0], { evidence: 0, a: 0, b: 0 });
    assert.throws(
      () =>
        longClusters(
          core,
          policyReport("other", () => 1, 11),
        ),
      /paired reports differ at trajectory 11/,
    );
  });

  it("compares each policy with its blind cut when both ran, and prints nothing otherwise", () => {
    const core = policyReport("core", () => 3);
    const blind = policyReport("blind:core", () => 1);
    const report: EvalReport = { trajectories: 12, steps: 12, systems: ["sys"], policies: [core, blind] };
    const table = formatLongTable(report);
    assert.match(table, /against the blind cut of equal size/);
    assert.match(table, /\ncore +\+50\.0 \[\+50\.0, \+50\.0\] of 48 better +\+50\.0 \[\+50\.0, \+50\.0\] of 48 better\n?/);
    assert.doesNotMatch(formatLongTable({ ...report, policies: [core] }), /blind cut/);
  });
});
