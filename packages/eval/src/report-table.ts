import type { EvalReport } from "./run-eval.js";
import type { Totals } from "./score-trajectory.js";

/** `part / whole` as a percentage with one decimal; "-" when `whole` is 0. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? "-" : `${(Math.round((part / whole) * 1000) / 10).toFixed(1)}%`;
}

/** A whole number with thousands separators. */
export const number = (value: number): string => Math.round(value).toLocaleString("en-US");

/** A plain-text table: the title, the header and the rows, columns padded (the first to the left, the rest to the right), then a blank line. */
export function textTable(title: string, header: readonly string[], body: readonly (readonly string[])[]): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((cells) => (cells[column] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ");
  return [title, line(header), ...body.map(line), ""];
}

function section(title: string, rows: ReadonlyArray<{ policy: string; totals: Totals }>, baseline: Totals | undefined): string[] {
  const header = [
    "policy",
    "tokens carried",
    "vs none",
    "first-view tokens",
    "cut",
    "saved",
    "evidence",
    "in view",
    "cut items",
    "in view (cut)",
    "reachable",
    "recoveries",
    "earlier items",
    "in history",
  ];
  const body = rows.map(({ policy, totals }) => [
    policy,
    number(totals.historyTokens),
    baseline === undefined ? "-" : percent(totals.historyTokens, baseline.historyTokens),
    number(totals.firstViewTokens),
    number(totals.cutOutputs),
    number(totals.savedOutputs),
    number(totals.evidence),
    percent(totals.inView, totals.evidence),
    number(totals.cutEvidence),
    percent(totals.cutInView, totals.cutEvidence),
    percent(totals.reachable, totals.evidence),
    number(totals.recoveries),
    number(totals.earlierEvidence),
    percent(totals.earlierInHistory, totals.earlierEvidence),
  ]);
  const first = rows[0]?.totals;
  const facts = first === undefined ? "" : ` (${number(first.trajectories)} trajectories, ${number(first.steps)} calls)`;
  return textTable(`${title}${facts}`, header, body);
}

/**
 * The report as plain-text tables: pooled, then one per agent system; one
 * row per policy with tokens carried (and as a share of `none`'s when `none`
 * ran), first-view tokens, outputs cut and saved, evidence items, the share in the
 * first view, the items of the outputs it cut and their share in the first
 * view, the share reachable with one recovery, and recoveries made. The
 * outputs over 8,000 characters have their own tables (`formatLongTable`).
 */
export function formatReportTable(report: EvalReport): string {
  const baselineOf = (pick: (totals: { pooled: Totals; bySystem: Record<string, Totals> }) => Totals | undefined): Totals | undefined => {
    const none = report.policies.find((policy) => policy.policy === "none");
    return none === undefined ? undefined : pick(none);
  };
  const lines = section(
    "pooled",
    report.policies.map((policy) => ({ policy: policy.policy, totals: policy.pooled })),
    baselineOf((none) => none.pooled),
  );
  for (const system of report.systems) {
    lines.push(
      ...section(
        system,
        report.policies.map((policy) => ({ policy: policy.policy, totals: policy.bySystem[system] ?? policy.pooled })),
        baselineOf((none) => none.bySystem[system]),
      ),
    );
  }
  return lines.join("\n");
}
