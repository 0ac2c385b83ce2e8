import type { LongTotals } from "./long-totals.js";
import { number, percent, textTable } from "./report-table.js";
import type { EvalReport } from "./run-eval.js";
import type { Totals } from "./score-trajectory.js";

/** "88.2% of 340": a share and the number of items behind it ("-" when there are none). */
export function shareOf(part: number, whole: number): string {
  return whole === 0 ? "-" : `${percent(part, whole)} of ${number(whole)}`;
}

/** The kinds with items, most items first (then by name), over every policy's totals. */
function kindsOf(totals: readonly Totals[]): string[] {
  const items = new Map<string, number>();
  for (const one of totals) for (const [kind, long] of Object.entries(one.longByKind)) items.set(kind, Math.max(items.get(kind) ?? 0, long.evidence));
  return [...items.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([kind]) => kind);
}

function section(title: string, rows: ReadonlyArray<{ policy: string; totals: Totals }>): string[] {
  const kinds = kindsOf(rows.map((row) => row.totals));
  const header = ["policy", "outputs", "mean view tokens", "evidence", "in view", "reachable", ...kinds.map((kind) => `${kind} in view`)];
  const body = rows.map(({ policy, totals }) => {
    const long: LongTotals = totals.long;
    return [
      policy,
      number(long.outputs),
      long.outputs === 0 ? "-" : number(long.viewTokens / long.outputs),
      number(long.evidence),
      percent(long.inView, long.evidence),
      percent(long.reachable, long.evidence),
      ...kinds.map((kind) => {
        const byKind = totals.longByKind[kind];
        return byKind === undefined ? "-" : shareOf(byKind.inView, byKind.evidence);
      }),
    ];
  });
  return textTable(`${title}: outputs over 8,000 characters, cut or not`, header, body);
}

/**
 * The outputs over 8,000 characters as plain-text tables, pooled and per
 * agent system: per policy, how many, their first views' mean tokens, their
 * evidence items, the share in the first view and reachable with one
 * recovery, and per kind the share in view with the number of items behind it.
 */
export function formatLongTable(report: EvalReport): string {
  const lines = section(
    "pooled",
    report.policies.map((policy) => ({ policy: policy.policy, totals: policy.pooled })),
  );
  for (const system of report.systems) {
    lines.push(
      ...section(
        system,
        report.policies.map((policy) => ({ policy: policy.policy, totals: policy.bySystem[system] ?? policy.pooled })),
      ),
    );
  }
  return lines.join("\n");
}
