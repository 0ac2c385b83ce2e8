import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { LongTotals } from "./long-totals.js";
import { readCorpus } from "./read-corpus.js";
import { resolvePolicies } from "./resolve-policies.js";
import { runEval, type EvalReport } from "./run-eval.js";
import { evalDataFiles } from "./testing/eval-data-files.js";

// The long outputs committed with the project: 799 real outputs over 8,000 characters, each with the next
// action a real agent took, so this runs in any clone.
const FILES = evalDataFiles();

// Evidence in the first view, over both splits, a point or two under what projector 0.9.6 keeps (57.1%,
// 41.6%, 73.8% and 56.0%): a change to a projector that loses more than that fails here, and one that means
// to trade items for something else lowers a floor in the same commit, saying why (docs/evaluation.md).
const FLOORS: Readonly<Record<string, number>> = {
  core: 0.555,
  "core:budget=1000": 0.4,
  "core:intent=on": 0.725,
  "core:intent=on,budget=1000": 0.545,
};

const share = (totals: LongTotals | undefined): number => (totals === undefined || totals.evidence === 0 ? 0 : totals.inView / totals.evidence);

describe("first views of the committed long outputs", () => {
  let report: EvalReport;
  const long = (policy: string, kind?: string): LongTotals | undefined => {
    const pooled = report.policies.find((entry) => entry.policy === policy)?.pooled;
    return kind === undefined ? pooled?.long : pooled?.longByKind[kind];
  };

  before(async () => {
    const corpus = await readCorpus(FILES);
    const names = [...Object.keys(FLOORS), "blind:core", "blind:core:intent=on"];
    report = await runEval(corpus.trajectories, { policies: resolvePolicies(names, [], undefined) });
  });

  it("hold at least their floor of the next step's items, within budget, every item one recovery away", { timeout: 180_000 }, () => {
    for (const [policy, floor] of Object.entries(FLOORS)) {
      const totals = long(policy);
      assert.ok(totals !== undefined && totals.evidence >= 800, `${policy}: the data's items`);
      assert.ok(share(totals) >= floor, `${policy}: ${share(totals).toFixed(3)} of ${String(totals.evidence)} items in view, floor ${String(floor)}`);
      assert.equal(totals.reachable, totals.evidence, `${policy}: every item in view or reached by one recovery`);
      // No model named: the views aim at the budget less the unknown tokenizer's 25% margin.
      const budget = policy.includes("budget=1000") ? 800 : 1600;
      assert.ok(totals.viewTokens / totals.outputs <= budget, `${policy}: mean view ${String(totals.viewTokens / totals.outputs)} tokens`);
    }
  });

  it("beat the blind cut of the same size, pooled and for file reads and searches alike", () => {
    for (const [policy, blind, margin] of [
      ["core", "blind:core", 0.05],
      ["core:intent=on", "blind:core:intent=on", 0.2],
    ] as const) {
      assert.ok(share(long(policy)) >= share(long(blind)) + margin, `${policy} ${share(long(policy)).toFixed(3)} against ${share(long(blind)).toFixed(3)}`);
      const blindTokens = long(blind)?.viewTokens ?? 0;
      assert.ok(Math.abs((long(policy)?.viewTokens ?? 0) - blindTokens) <= 0.01 * blindTokens, `${policy}: the blind cut is of equal size`);
    }
    for (const kind of ["file_read", "search"]) {
      const items = long("core:intent=on", kind)?.evidence ?? 0;
      assert.ok(items >= 50, `${kind}: ${String(items)} items, enough to tell`);
      assert.ok(share(long("core:intent=on", kind)) > share(long("blind:core:intent=on", kind)), `${kind} with the intent against the blind cut`);
    }
  });
});
