import type { Carried } from "./note-score.js";
import { escapeHtml } from "./report-html.js";
import { percent } from "./report-table.js";
import type { NoteReport, NoteTotals } from "./run-note-eval.js";

const PLACES: ReadonlyArray<readonly [Carried, string, string]> = [
  ["note", "in the note", "#2ca02c"],
  ["kept", "in the kept turns", "#98df8a"],
  ["address", "in a cited turn", "#1f77b4"],
  ["search", "by search only", "#ff7f0e"],
  ["lost", "lost", "#d62728"],
];
const WIDTH = 640;
const LABEL = 190;
const BAR = 22;
const GAP = 12;

interface Row {
  readonly label: string;
  readonly totals: NoteTotals;
}

/** One horizontal bar per row, split by where the items were found; a black tick marks what truncation to the same size keeps. */
function bars(rows: readonly Row[]): string {
  const plot = WIDTH - LABEL - 20;
  const height = rows.length * (BAR + GAP) + 40;
  const marks = rows.map(({ label, totals }, index) => {
    const y = 10 + index * (BAR + GAP);
    let x = LABEL;
    const segments = PLACES.map(([place, name, color]) => {
      const width = totals.items === 0 ? 0 : (totals.found[place] / totals.items) * plot;
      const rect = `<rect x="${x.toFixed(1)}" y="${String(y)}" width="${width.toFixed(1)}" height="${String(BAR)}" fill="${color}"><title>${escapeHtml(`${label}: ${percent(totals.found[place], totals.items)} ${name}`)}</title></rect>`;
      x += width;
      return rect;
    });
    const recent = LABEL + (totals.items === 0 ? 0 : (totals.recentTurns / totals.items) * plot);
    const tick = `<line x1="${recent.toFixed(1)}" x2="${recent.toFixed(1)}" y1="${String(y - 3)}" y2="${String(y + BAR + 3)}" stroke="#000" stroke-width="2"><title>${escapeHtml(`${label}: ${percent(totals.recentTurns, totals.items)} in the most recent turns of the same size`)}</title></line>`;
    return `<text x="${String(LABEL - 8)}" y="${String(y + BAR / 2 + 4)}" text-anchor="end" font-size="11">${escapeHtml(label)}</text>${segments.join("")}${tick}`;
  });
  const legend = PLACES.map(
    ([, name, color], index) =>
      `<rect x="${String(LABEL + index * 95)}" y="${String(height - 22)}" width="10" height="10" fill="${color}"/><text x="${String(LABEL + index * 95 + 14)}" y="${String(height - 13)}" font-size="10">${name}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${String(WIDTH)}" height="${String(height)}" viewBox="0 0 ${String(WIDTH)} ${String(height)}" role="img">${marks.join("\n")}${legend.join("")}</svg>`;
}

function table(rows: readonly Row[]): string {
  const body = rows.map(({ label, totals }) => {
    const cells = [
      `${String(totals.compactedTrajectories)}/${String(totals.trajectories)}`,
      String(totals.compactions),
      totals.compactions === 0 ? "-" : Math.round(totals.noteTokens / totals.compactions).toLocaleString("en-US"),
      String(totals.items),
      ...PLACES.map(([place]) => percent(totals.found[place], totals.items)),
      percent(totals.recentTurns, totals.items),
    ];
    return `<tr><td>${escapeHtml(label)}</td>${cells.map((cell) => `<td>${cell}</td>`).join("")}</tr>`;
  });
  const head = ["", "compacted", "compactions", "note tokens", "items", ...PLACES.map(([, name]) => name), "recent turns only"];
  return `<table><thead><tr>${head.map((cell) => `<th>${escapeHtml(cell)}</th>`).join("")}</tr></thead><tbody>${body.join("")}</tbody></table>`;
}

/**
 * The note-quality results as a self-contained HTML page (inline CSS and SVG):
 * per window, pooled and per agent system that compacted, a bar of where the
 * items used after a compaction were found (note, kept turns, a cited turn,
 * search only, lost) with a tick at what truncation to the same size keeps,
 * and the figures as a table.
 */
export function formatNoteHtml(reports: readonly NoteReport[], title = "loupe eval --notes"): string {
  const sections = reports.map((report) => {
    const windowLabel = `${report.windowTokens.toLocaleString("en-US")}-token window`;
    const rows: Row[] = [
      { label: "pooled", totals: report.pooled },
      ...Object.keys(report.bySystem)
        .sort()
        .map((system) => ({ label: system, totals: report.bySystem[system] as NoteTotals }))
        .filter((row) => row.totals.compactions > 0),
    ];
    return `<section><h2>${escapeHtml(windowLabel)}</h2>${bars(rows)}${table(rows)}</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}td:first-child,th:first-child{text-align:left}</style>
</head><body><h1>${escapeHtml(title)}</h1>
<p>Items (identifiers, paths, error names, quoted strings) that the agent's actions after a compaction used from before it, by where they were found. The black tick: the share that keeping only the most recent turns of the same size would have held.</p>
${sections.join("\n")}
</body></html>
`;
}
