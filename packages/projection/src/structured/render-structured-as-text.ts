import { formatNumber } from "../format-number.js";
import { buildLineView } from "../lines/build-line-view.js";
import type { LineBlock } from "../lines/select-lines.js";
import type { ProjectorContext } from "../projectors/projector.js";
import { coverLines } from "./cover-lines.js";
import type { ScoredStructuredView } from "./project-structured.js";
import { renderStructuredLines, type TextLine, type TextSection } from "./render-structured-lines.js";
import { jsonContinuation, type StructuredOmission, type StructuredView } from "./structured-omission.js";

const MIN_RENDER_BYTES = 64 * 1024;

function describe(value: unknown): string {
  if (Array.isArray(value)) return `array of ${formatNumber(value.length)} items, one section per item`;
  if (typeof value === "object" && value !== null) return `object with ${formatNumber(Object.keys(value).length)} keys, one section per key`;
  return typeof value;
}

// Runs of [start, end) without placeholder lines: placeholders are never kept.
function runs(lines: readonly TextLine[], start: number, end: number): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let from = start;
  for (let index = start; index <= end; index++) {
    if (index < end && !(lines[index]?.placeholder ?? false)) continue;
    if (index > from) found.push([from, index]);
    from = index + 1;
  }
  return found;
}

// Shares of the budget the first item's and each failed item's body may take before other items' headers.
const FIRST_BODY_SHARE = 0.25;
const FAILED_BODY_SHARE = 0.25;

function sectionBlocks(lines: readonly TextLine[], section: TextSection, budgetTokens: number): LineBlock[] {
  const [first] = runs(lines, section.start, section.end);
  if (first === undefined || !section.top) return [];
  const [start, end] = first;
  const header = (priority: number): LineBlock => ({ start, end: start + 1, priority, take: "all" });
  const body = (priority: number, share?: number): LineBlock =>
    share === undefined ? { start, end, priority, take: "head" } : { start, end, priority, take: "head", maxTokens: Math.floor(budgetTokens * share) };
  switch (section.kind) {
    case "first":
      return [header(0), body(2, FIRST_BODY_SHARE)];
    case "failed":
      return [header(1), body(1, FAILED_BODY_SHARE)];
    case "last":
      return [header(1), body(4)];
    case "other":
      return [{ ...header(3), group: "headers" }, body(5)];
    case "member":
      return [header(0), body(5)];
  }
}

/**
 * Renders a structured-only result as readable text (see
 * renderStructuredLines) and cuts it to the budget with whole lines: the
 * headers (identity lines) of the first, failed and last items of the main
 * list first, with a share of the budget for the first and failed items'
 * bodies, then the other items' headers in order, then bodies. Each omitted run of lines is one notice whose
 * continuation names the smallest JSON part holding it (a pointer, or a
 * pointer and an item range), so Recover serves it as JSON, a superset of the
 * omitted lines. Pure and deterministic.
 */
export function renderStructuredAsText(json: unknown, context: ProjectorContext): StructuredView {
  return renderStructuredAsTextScored(json, context).view;
}

/** {@link renderStructuredAsText}, also returning how many characters of the value the kept lines show. */
export function renderStructuredAsTextScored(json: unknown, context: ProjectorContext): ScoredStructuredView {
  const { counter, resultId } = context;
  const { lines, sections } = renderStructuredLines(json, Math.max(MIN_RENDER_BYTES, 4 * context.maxViewBytes));
  const texts = lines.map((line) => line.text);
  const describeGap = (startLine: number, endLine: number): { description: string; continuationJson: string } => {
    const cover = coverLines(lines, startLine - 1, endLine, json);
    const continuation = jsonContinuation(resultId, cover.jsonPointer, cover.itemStart, cover.itemEnd);
    const where = cover.jsonPointer === "" ? "the root" : JSON.stringify(cover.jsonPointer);
    const part =
      cover.itemStart === undefined || cover.itemEnd === undefined
        ? where
        : `items ${formatNumber(cover.itemStart)}–${formatNumber(cover.itemEnd - 1)} of ${where}`;
    const count = startLine === endLine ? "1 line" : `${formatNumber(endLine - startLine + 1)} lines`;
    const how = continuation === "" ? "the full result could not be saved" : `recover as JSON with ${continuation}`;
    return { description: `[loupe] ${count} of ${part} omitted; ${how}`, continuationJson: continuation };
  };
  const blocks: LineBlock[] = sections.flatMap((section) => sectionBlocks(lines, section, context.budgetTokens));
  for (const [start, end] of runs(lines, 0, lines.length)) blocks.push({ start, end, priority: 6, take: "head" });
  const header = [`[loupe] structured result shown as text: ${describe(json)}`];
  const view = buildLineView(texts, blocks, { budgetTokens: context.budgetTokens, maxViewBytes: context.maxViewBytes, counter, describeGap, header });
  const omissions: StructuredOmission[] = view.omissions.map((omission) => {
    const cover = coverLines(lines, omission.startLine - 1, omission.endLine, json);
    return { description: omission.description, continuationJson: omission.continuationJson, ...cover };
  });
  let verbatimChars = 0;
  let next = 0;
  for (const omission of view.omissions) {
    for (let index = next; index < omission.startLine - 1; index++) verbatimChars += lines[index]?.content ?? 0;
    next = omission.endLine;
  }
  for (let index = next; index < lines.length; index++) verbatimChars += lines[index]?.content ?? 0;
  return { view: { text: view.text, omissions, unchanged: false }, verbatimChars, omittedStringChars: 0 };
}
