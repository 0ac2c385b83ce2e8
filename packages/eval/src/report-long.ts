import type { LongTotals } from "./long-totals.js";
import { blindComparisons, type PairedDifference } from "./paired-difference.js";
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

/** A table's header and rows of cells, for the text and the HTML report alike. */
export interface TableRows {
  readonly header: readonly string[];
  readonly body: ReadonlyArray<readonly string[]>;
}

/**
 * The outputs over 8,000 characters of `rows` (one per policy): how many, their first views' mean tokens,
 * their evidence items, the share in view, the share of the names among them in view (with their number),
 * the share reachable, and per kind the share in view with its items.
 */
export function longRows(rows: ReadonlyArray<{ policy: string; totals: Totals }>): TableRows {
  const kinds = kindsOf(rows.map((row) => row.totals));
  const header = ["policy", "outputs", "mean view tokens", "evidence", "in view", "names in view", "reachable", ...kinds.map((kind) => `${kind} in view`)];
  const body = rows.map(({ policy, totals }) => {
    const long: LongTotals = totals.long;
    return [
      policy,
      number(long.outputs),
      long.outputs === 0 ? "-" : number(long.viewTokens / long.outputs),
      number(long.evidence),
      percent(long.inView, long.evidence),
      shareOf(long.namesInView, long.names),
      percent(long.reachable, long.evidence),
      ...kinds.map((kind) => {
        const byKind = totals.longByKind[kind];
        return byKind === undefined ? "-" : shareOf(byKind.inView, byKind.evidence);
      }),
    ];
  });
  return { header, body };
}

function section(title: string, rows: ReadonlyArray<{ policy: string; totals: Totals }>): string[] {
  const { header, body } = longRows(rows);
  return textTable(`${title}: outputs over 8,000 characters, cut or not`, header, body);
}

/** Points with a sign: "+2.9", "-0.4", "0.0". */
function points(share: number): string {
  const value = (share * 100).toFixed(1);
  return share > 0 && value !== "0.0" ? `+${value}` : value === "-0.0" ? "0.0" : value;
}

// Fewer trajectories than this give a bootstrap interval too narrow to trust: no verdict.
const MIN_CLUSTERS = 10;

/**
 * "+2.9 [-1.8, +7.6] of 384", and "better" or "worse" when the interval leaves zero out and the items
 * come from MIN_CLUSTERS trajectories or more ("too few" below that).
 */
export function formatDifference(difference: PairedDifference | undefined): string {
  if (difference === undefined) return "-";
  const verdict = difference.clusters < MIN_CLUSTERS ? " too few" : difference.low > 0 ? " better" : difference.high < 0 ? " worse" : "";
  return `${points(difference.difference)} [${points(difference.low)}, ${points(difference.high)}] of ${number(difference.items)}${verdict}`;
}

/** The title of the comparison with the blind cut, in both reports. */
export const BLIND_TITLE = "against the blind cut of equal size: points in view over outputs over 8,000 characters, 95% interval (bootstrap over trajectories)";

/**
 * Each policy that ran beside its blind cut (`blind:<policy>`): its share in view less the blind cut's,
 * in points, over outputs over 8,000 characters, all and per kind, with a 95% bootstrap interval over
 * trajectories — whether the items are enough to tell the two apart. Undefined when none did.
 */
export function blindRows(report: EvalReport): TableRows | undefined {
  const comparisons = blindComparisons(report);
  if (comparisons.length === 0) return undefined;
  const kinds = kindsOf(report.policies.filter((policy) => comparisons.some((one) => one.policy === policy.policy)).map((policy) => policy.pooled));
  const header = ["policy", "all", ...kinds];
  const body = comparisons.map(({ policy, all, byKind }) => [policy, formatDifference(all), ...kinds.map((kind) => formatDifference(byKind[kind]))]);
  return { header, body };
}

function blindSection(report: EvalReport): string[] {
  const rows = blindRows(report);
  return rows === undefined ? [] : textTable(BLIND_TITLE, rows.header, rows.body);
}

/**
 * The outputs over 8,000 characters as plain-text tables, pooled and per
 * agent system: per policy, how many, their first views' mean tokens, their
 * evidence items, the share in the first view and reachable with one
 * recovery, and per kind the share in view with the number of items behind it;
 * then each policy against its blind cut, where one ran (see blindSection).
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
  lines.push(...blindSection(report));
  return lines.join("\n");
}
