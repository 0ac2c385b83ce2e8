import type { Carried } from "./note-score.js";
import { number, percent, textTable } from "./report-table.js";
import type { NoteReport, NoteTotals } from "./run-note-eval.js";

const HEADER = [
  "window / system",
  "compacted",
  "compactions",
  "prepared",
  "note tokens",
  "covered/note",
  "cited/note",
  "items",
  "in note",
  "kept turns",
  "via address",
  "reads/item",
  "handed over",
  "via search",
  "lost",
  "recent turns only",
];

const KIND_HEADER = ["window / kind", "items", "in note", "in context", "handed over", "via search", "lost"];

function kindRows(report: NoteReport): string[][] {
  return Object.entries(report.pooled.foundByKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, found]: [string, Record<Carried, number>]) => {
      const items = Object.values(found).reduce((total, count) => total + count, 0);
      return [
        `${number(report.windowTokens)} ${kind}`,
        number(items),
        percent(found.note, items),
        percent(found.note + found.kept, items),
        percent(found.note + found.kept + found.address, items),
        percent(found.search, items),
        percent(found.lost, items),
      ];
    });
}

function row(label: string, totals: NoteTotals): string[] {
  const { found, items } = totals;
  return [
    label,
    `${number(totals.compactedTrajectories)}/${number(totals.trajectories)}`,
    number(totals.compactions),
    percent(totals.prepared, totals.compactions),
    totals.compactions === 0 ? "-" : number(totals.noteTokens / totals.compactions),
    totals.noteTokens === 0 ? "-" : `${(totals.coveredTokens / totals.noteTokens).toFixed(1)}×`,
    totals.compactions === 0 ? "-" : (totals.citedAddresses / totals.compactions).toFixed(1),
    number(items),
    percent(found.note, items),
    percent(found.kept, items),
    percent(found.address, items),
    found.address === 0 ? "-" : (totals.addressReads / found.address).toFixed(1),
    percent(found.note + found.kept + found.address, items),
    percent(found.search, items),
    percent(found.lost, items),
    percent(totals.recentTurns, items),
  ];
}

/**
 * The note-quality results as one plain-text table: per window, pooled and per
 * agent system — trajectories that reached compaction, compactions and the
 * share PREPARED, mean note tokens, covered tokens per note token, the mean
 * number of addresses a note cites, items used
 * after a compaction from before it, the share in the note, in the kept
 * turns, in a turn the note cites (with the mean number of cited turns read,
 * most recent first, to find each), handed over (the three), found only by
 * searching the history, lost; and the share that keeping only the most
 * recent turns of the same size would have held. Then the pooled shares per
 * kind of item.
 */
export function formatNoteTable(reports: readonly NoteReport[]): string {
  const body = reports.flatMap((report) => [
    row(`${number(report.windowTokens)} pooled`, report.pooled),
    ...Object.keys(report.bySystem)
      .sort()
      .map((system) => row(`${number(report.windowTokens)} ${system}`, report.bySystem[system] as NoteTotals)),
  ]);
  return [
    ...textTable("note quality (items used after a compaction that occurred only before it)", HEADER, body),
    ...textTable("by kind of item (pooled)", KIND_HEADER, reports.flatMap(kindRows)),
  ].join("\n");
}
