import { percent } from "./report-table.js";
import type { NoteReport, NoteTotals } from "./run-note-eval.js";

const number = (value: number): string => Math.round(value).toLocaleString("en-US");

const HEADER = ["window / system", "compacted", "compactions", "prepared", "note tokens", "covered/note", "items", "in note", "kept turns", "via address", "handed over", "via search", "lost", "recent turns only"];

function row(label: string, totals: NoteTotals): string[] {
  const { found, items } = totals;
  return [
    label,
    `${number(totals.compactedTrajectories)}/${number(totals.trajectories)}`,
    number(totals.compactions),
    percent(totals.prepared, totals.compactions),
    totals.compactions === 0 ? "-" : number(totals.noteTokens / totals.compactions),
    totals.noteTokens === 0 ? "-" : `${(totals.coveredTokens / totals.noteTokens).toFixed(1)}×`,
    number(items),
    percent(found.note, items),
    percent(found.kept, items),
    percent(found.address, items),
    percent(found.note + found.kept + found.address, items),
    percent(found.search, items),
    percent(found.lost, items),
    percent(totals.recentTurns, items),
  ];
}

/**
 * The note-quality results as one plain-text table: per window, pooled and per
 * agent system — trajectories that reached compaction, compactions and the
 * share PREPARED, mean note tokens, covered tokens per note token, items used
 * after a compaction from before it, the share in the note, in the kept
 * turns, in a turn the note cites (handed over = the three), found only by
 * searching the history, lost; and the share that keeping only the most
 * recent turns of the same size would have held.
 */
export function formatNoteTable(reports: readonly NoteReport[]): string {
  const body = reports.flatMap((report) => [
    row(`${number(report.windowTokens)} pooled`, report.pooled),
    ...Object.keys(report.bySystem)
      .sort()
      .map((system) => row(`${number(report.windowTokens)} ${system}`, report.bySystem[system] as NoteTotals)),
  ]);
  const widths = HEADER.map((cell, column) => Math.max(cell.length, ...body.map((cells) => (cells[column] ?? "").length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ");
  return ["note quality (items used after a compaction that occurred only before it)", line(HEADER), ...body.map(line), ""].join("\n");
}
