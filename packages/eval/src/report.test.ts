import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatReportHtml } from "./report-html.js";
import { formatReportTable, percent } from "./report-table.js";
import type { EvalReport } from "./run-eval.js";
import { emptyTotals, type Totals } from "./score-trajectory.js";

const totals = (fields: Partial<Totals>): Totals => ({ ...emptyTotals(), trajectories: 1, steps: 4, ...fields });
const report: EvalReport = {
  trajectories: 1,
  steps: 4,
  systems: ["sys<a>"],
  policies: [
    {
      policy: "none",
      pooled: totals({ historyTokens: 1000, firstViewTokens: 400, evidence: 8, inView: 8, reachable: 8 }),
      bySystem: { "sys<a>": totals({ historyTokens: 1000, evidence: 8, inView: 8, reachable: 8 }) },
      byTrajectory: [],
    },
    {
      policy: "loupe",
      pooled: totals({
        historyTokens: 250,
        firstViewTokens: 100,
        evidence: 8,
        inView: 6,
        reachable: 7,
        recoveries: 1,
        cutOutputs: 1,
        cutEvidence: 4,
        cutInView: 2,
        earlierEvidence: 5,
        earlierInHistory: 3,
      }),
      bySystem: { "sys<a>": totals({ historyTokens: 250, evidence: 8, inView: 6, reachable: 7 }) },
      byTrajectory: [],
    },
  ],
};

describe("percent()", () => {
  it("rounds to one decimal and shows - for nothing", () => {
    assert.equal(percent(1, 3), "33.3%");
    assert.equal(percent(2, 2), "100.0%");
    assert.equal(percent(0, 0), "-");
  });
});

describe("formatReportTable()", () => {
  it("has a pooled and a per-system section, with shares of none's tokens", () => {
    const table = formatReportTable(report);
    assert.match(table, /^pooled \(1 trajectories, 4 calls\)\npolicy /);
    assert.match(table, /\nsys<a> \(1 trajectories, 4 calls\)\n/);
    assert.match(
      table,
      /\npolicy +tokens carried +vs none +first-view tokens +cut +saved +evidence +in view +cut items +in view \(cut\) +reachable +recoveries +earlier items +in history\n/,
    );
    assert.match(table, /\nnone +1,000 +100\.0% +400 +0 +0 +8 +100\.0% +0 +- +100\.0% +0 +0 +-\n/);
    assert.match(table, /\nloupe +250 +25\.0% +100 +1 +0 +8 +75\.0% +4 +50\.0% +87\.5% +1 +5 +60\.0%\n/);
  });
});

describe("formatReportHtml()", () => {
  it("is one self-contained page with an inline SVG chart per section, text escaped", () => {
    const html = formatReportHtml(report);
    assert.equal(html.match(/<svg /g)?.length, 2);
    assert.ok(!/<(script|link|img)\b/.test(html) && !/src=|href=/.test(html), "no external assets");
    assert.ok(html.includes("sys&#60;a&#62;") && !html.includes("sys<a>"));
    assert.ok(html.includes("<title>loupe: 250 tokens carried, 75.0% in view, 87.5% reachable</title>"));
    assert.ok(html.includes("<th>in view among cut outputs</th>") && html.includes("<td>50.0% of 4</td>"));
    assert.ok(html.includes("<th>earlier items in history</th>") && html.includes("<td>60.0% of 5</td>"));
    assert.ok(!html.includes("Against the blind cut"), "no comparison without a blind policy");
  });

  it("carries the long-output table per section and each policy against its blind cut, as the text report does", () => {
    // Twelve trajectories, each with one long file read of 2 items: core keeps both, its blind cut one.
    // One of the two items is a name: core keeps it, the blind cut does not.
    const long = (inView: number): Totals["long"] => ({ outputs: 1, viewTokens: 1500, evidence: 2, inView, reachable: 2, names: 1, namesInView: inView - 1 });
    const policy = (name: string, inView: number): EvalReport["policies"][number] => {
      const one = totals({ long: long(inView), longByKind: { file_read: long(inView) } });
      const pooled = totals({
        long: { ...long(inView * 12), outputs: 12, evidence: 24, names: 12, namesInView: (inView - 1) * 12 },
        longByKind: { file_read: { ...long(inView * 12), outputs: 12, evidence: 24, names: 12, namesInView: (inView - 1) * 12 } },
      });
      const byTrajectory = Array.from({ length: 12 }, (_, index) => ({ id: `t${String(index)}`, agentSystem: "sys<a>", totals: one }));
      return { policy: name, pooled, bySystem: { "sys<a>": pooled }, byTrajectory };
    };
    const html = formatReportHtml({ trajectories: 12, steps: 48, systems: ["sys<a>"], policies: [policy("core", 2), policy("blind:core", 1)] });
    assert.equal(html.match(/<caption>[^<]*outputs over 8,000 characters, cut or not<\/caption>/g)?.length, 2, "pooled and per system");
    assert.ok(html.includes("<td>100.0% of 24</td>") && html.includes("<td>50.0% of 24</td>"), "file reads in view, with their items");
    assert.ok(html.includes("<th>names in view</th>") && html.includes("<td>100.0% of 12</td>") && html.includes("<td>0.0% of 12</td>"), "names in view");
    assert.ok(html.includes("Against the blind cut"));
    assert.ok(html.includes("<td>+50.0 [+50.0, +50.0] of 24 better</td>"), html.slice(html.indexOf("Against")));
  });
});
