import { BLIND_TITLE, blindRows, longRows, type TableRows } from "./report-long.js";
import { percent } from "./report-table.js";
import type { EvalReport } from "./run-eval.js";
import type { Totals } from "./score-trajectory.js";

/** Text made safe for HTML element content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
const WIDTH = 520;
const HEIGHT = 340;
const MARGIN = { left: 60, right: 20, top: 20, bottom: 45 };

interface Point {
  readonly policy: string;
  readonly color: string;
  readonly totals: Totals;
}

/** Axis range [low, high] covering `values` with a margin; `floor` and `ceiling` bound it. */
function range(values: readonly number[], floor: number, ceiling: number): readonly [number, number] {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const margin = Math.max((high - low) * 0.1, Math.abs(high) * 0.02, Number.EPSILON);
  return [Math.max(floor, low - margin), Math.min(ceiling, high + margin)];
}

/** One scatter chart: x = tokens carried, y = evidence kept (filled: in view; ring: reachable); axes fitted to the points. */
function chart(title: string, points: readonly Point[]): string {
  const share = (part: number, whole: number): number => (whole === 0 ? 1 : part / whole);
  const [lowX, highX] = range(
    points.map((point) => point.totals.historyTokens),
    0,
    Infinity,
  );
  const [lowY, highY] = range(
    points.flatMap((point) => [share(point.totals.inView, point.totals.evidence), share(point.totals.reachable, point.totals.evidence)]),
    0,
    1,
  );
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (value: number): number => MARGIN.left + ((value - lowX) / (highX - lowX)) * plotWidth;
  const y = (value: number): number => MARGIN.top + (1 - (value - lowY) / (highY - lowY)) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1].map((tick) => {
    const valueY = lowY + tick * (highY - lowY);
    const valueX = lowX + tick * (highX - lowX);
    return (
      `<line x1="${String(MARGIN.left)}" x2="${String(WIDTH - MARGIN.right)}" y1="${y(valueY).toFixed(1)}" y2="${y(valueY).toFixed(1)}" stroke="#ddd"/>` +
      `<text x="${String(MARGIN.left - 6)}" y="${(y(valueY) + 4).toFixed(1)}" text-anchor="end" font-size="11">${(valueY * 100).toFixed(1)}%</text>` +
      `<text x="${x(valueX).toFixed(1)}" y="${String(HEIGHT - MARGIN.bottom + 16)}" text-anchor="middle" font-size="11">${Math.round(valueX).toLocaleString("en-US")}</text>`
    );
  });
  const marks = points.map((point) => {
    const cx = x(point.totals.historyTokens).toFixed(1);
    const label = escapeHtml(
      `${point.policy}: ${point.totals.historyTokens.toLocaleString("en-US")} tokens carried, ${percent(point.totals.inView, point.totals.evidence)} in view, ${percent(point.totals.reachable, point.totals.evidence)} reachable`,
    );
    return (
      `<circle cx="${cx}" cy="${y(share(point.totals.reachable, point.totals.evidence)).toFixed(1)}" r="7" fill="none" stroke="${point.color}" stroke-width="2"><title>${label}</title></circle>` +
      `<circle cx="${cx}" cy="${y(share(point.totals.inView, point.totals.evidence)).toFixed(1)}" r="4.5" fill="${point.color}"><title>${label}</title></circle>`
    );
  });
  // One label per spot: policies with the same figures share it.
  const labels = new Map<string, string[]>();
  for (const point of points) {
    const key = `${x(point.totals.historyTokens).toFixed(0)},${y(share(point.totals.inView, point.totals.evidence)).toFixed(0)}`;
    labels.set(key, [...(labels.get(key) ?? []), point.policy]);
  }
  const texts = [...labels].map(([key, names]) => {
    const [cx = 0, cy = 0] = key.split(",").map(Number);
    const anchor = cx > WIDTH / 2 ? "end" : "start";
    return `<text x="${String(cx + (anchor === "end" ? -9 : 9))}" y="${String(cy + 14)}" text-anchor="${anchor}" font-size="10">${escapeHtml(names.join(", "))}</text>`;
  });
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" width="${String(WIDTH)}" height="${String(HEIGHT)}" viewBox="0 0 ${String(WIDTH)} ${String(HEIGHT)}" role="img">
<rect x="${String(MARGIN.left)}" y="${String(MARGIN.top)}" width="${String(plotWidth)}" height="${String(plotHeight)}" fill="none" stroke="#999"/>
${grid.join("\n")}
<text x="${String(MARGIN.left + plotWidth / 2)}" y="${String(HEIGHT - 8)}" text-anchor="middle" font-size="12">tokens carried in history</text>
<text transform="translate(14 ${String(MARGIN.top + plotHeight / 2)}) rotate(-90)" text-anchor="middle" font-size="12">evidence kept</text>
${marks.join("\n")}
${texts.join("\n")}
</svg></figure>`;
}

function table(points: readonly Point[]): string {
  const rows = points.map(
    ({ policy, color, totals }) =>
      `<tr><td><span style="color:${color}">●</span> ${escapeHtml(policy)}</td><td>${totals.historyTokens.toLocaleString("en-US")}</td><td>${totals.firstViewTokens.toLocaleString("en-US")}</td><td>${percent(totals.inView, totals.evidence)}</td><td>${percent(totals.cutInView, totals.cutEvidence)} of ${totals.cutEvidence.toLocaleString("en-US")}</td><td>${percent(totals.reachable, totals.evidence)}</td><td>${String(totals.recoveries)}</td><td>${percent(totals.earlierInHistory, totals.earlierEvidence)} of ${totals.earlierEvidence.toLocaleString("en-US")}</td></tr>`,
  );
  return `<table><thead><tr><th>policy</th><th>tokens carried</th><th>first-view tokens</th><th>evidence in view</th><th>in view among cut outputs</th><th>reachable</th><th>recoveries</th><th>earlier items in history</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** A table of text cells (escaped) under a caption; the first column left-aligned. */
function rowsTable(caption: string, { header, body }: TableRows): string {
  const cells = (tag: string, row: readonly string[]): string => `<tr>${row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join("")}</tr>`;
  return `<table><caption>${escapeHtml(caption)}</caption><thead>${cells("th", header)}</thead><tbody>${body.map((row) => cells("td", row)).join("")}</tbody></table>`;
}

/**
 * A self-contained HTML report (inline CSS and SVG, no external assets): per
 * agent system and pooled, a chart of tokens carried against evidence kept
 * (one point per policy: filled = in the first view, ring = reachable with
 * one recovery) and the figures as a table, with the evidence in view among
 * the outputs a policy cut (undiluted by those that fit whole), then the
 * outputs over 8,000 characters per policy and kind; last, each policy against
 * its blind cut where one ran (points with a 95% interval) — the plain-text
 * report's tables.
 */
export function formatReportHtml(report: EvalReport, title = "loupe eval"): string {
  const sections = [{ name: "pooled", pick: (policy: EvalReport["policies"][number]) => policy.pooled }].concat(
    report.systems.map((system) => ({ name: system, pick: (policy: EvalReport["policies"][number]) => policy.bySystem[system] ?? policy.pooled })),
  );
  const body = sections.map(({ name, pick }) => {
    const points = report.policies.map((policy, index) => ({ policy: policy.policy, color: COLORS[index % COLORS.length] ?? "#000", totals: pick(policy) }));
    const facts =
      points[0] === undefined
        ? ""
        : ` — ${String(points[0].totals.trajectories)} trajectories, ${String(points[0].totals.steps)} calls, ${String(points[0].totals.evidence)} evidence items`;
    const long = rowsTable(`${name}: outputs over 8,000 characters, cut or not`, longRows(points.map(({ policy, totals }) => ({ policy, totals }))));
    return `<section><h2>${escapeHtml(name + facts)}</h2>${chart(`${name}: tokens carried vs evidence kept`, points)}${table(points)}${long}</section>`;
  });
  const blind = blindRows(report);
  if (blind !== undefined) body.push(`<section><h2>Against the blind cut</h2>${rowsTable(BLIND_TITLE, blind)}</section>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}td:first-child,th:first-child{text-align:left}figcaption,caption{font-weight:600;text-align:left}</style>
</head><body><h1>${escapeHtml(title)}</h1>
<p>${String(report.trajectories)} trajectories, ${String(report.steps)} calls. Tokens are o200k_base. Filled point: evidence in the first view; ring: reachable with one recovery.</p>
${body.join("\n")}
</body></html>
`;
}
