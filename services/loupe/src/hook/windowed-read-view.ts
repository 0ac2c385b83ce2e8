import { restOfReadNotice } from "./numbered-read-view.js";

/** A line range a view left out of a read (1-based, inclusive, in the read's own lines). */
export interface OmittedLines {
  startLine?: number | undefined;
  endLine?: number | undefined;
}

/** What the layout needs: Loupe's view of the read, the ranges it left out, and how the runtime numbers the read. */
export interface WindowedReadInput {
  /** Loupe's view of the read: the lines it kept, in order, and its `[loupe]` notices among them. */
  viewText: string;
  /** The view's omissions; each must carry a line range. */
  omissions: readonly OmittedLines[];
  /** The read's content as the tool gave it: its lines, and a line of the file that starts like a notice told from a notice. */
  original: string;
  /** The file line the read's content starts at (the runtime numbers from it). */
  startLine: number;
  resultId: string;
  filePath?: string;
  /** The most characters the runtime shows beside the lines before it puts them in a file of their own. */
  maxContextChars: number;
}

/** One contiguous run of the read's lines for the runtime to number, and the rest of the view beside it. */
export interface WindowedReadView {
  /** The first run of lines the view kept (the view's own text of them: secrets stay masked). */
  content: string;
  numLines: number;
  /** The file line `content` starts at. */
  startLine: number;
  /** The view's notices and its later runs of lines, each line numbered as the file's: `1905\t…`. */
  context: string;
}

type Item = { notice: string } | { line: number; text: string };

// Room kept for the notice that closes a context cut short.
const CLOSING_ROOM = 400;
const LEAD = "[loupe] more of this read follows, each line numbered as in the file:";

/**
 * For runtimes that number a read's lines themselves from `startLine` (Claude Code's Read) and show a
 * hook's context beside them: Loupe's whole view of the read, with every line under its true number.
 * The runtime numbers one contiguous run, so the view's first run of lines goes in `content` (with the
 * `startLine` of its first line) and everything after it — the notices, and the later runs (the lines
 * the intent pointed at, the tail) numbered `N\t` as the runtime numbers its own — goes in `context`.
 * A context longer than `maxContextChars` ends at the last whole line that fits, with a notice naming
 * the lines it left out and the calls that read them.
 *
 * Undefined when the view cannot be laid out so (an omission without a line range, or the view's lines
 * not matching the lines it kept); the caller then falls back to the head of the read.
 */
export function windowedReadView(input: WindowedReadInput): WindowedReadView | undefined {
  const originalLines = input.original.split("\n");
  if (originalLines.at(-1) === "") originalLines.pop();
  const totalLines = originalLines.length;
  const kept = keptRuns(input.omissions, totalLines);
  const first = kept?.[0];
  if (kept === undefined || first === undefined) return undefined;
  const items = itemsOf(input.viewText, kept, originalLines);
  if (items === undefined) return undefined;
  const firstRunEnd = first.start + first.count - 1;
  const content: string[] = [];
  const rest: Item[] = [];
  for (const item of items) {
    if ("line" in item && item.line <= firstRunEnd) content.push(item.text);
    else rest.push(item);
  }
  const fileLine = (line: number): number => input.startLine + line - 1;
  const rendered = rest.map((item) => ("notice" in item ? item.notice : `${String(fileLine(item.line))}\t${item.text}`));
  const lead = rest.some((item) => "line" in item) ? [LEAD] : [];
  let lines = [...lead, ...rendered];
  if (lengthOf(lines) > input.maxContextChars) {
    let fits = lead.length;
    let size = lengthOf(lead);
    while (fits - lead.length < rendered.length && size + rendered[fits - lead.length]!.length + 1 <= input.maxContextChars - CLOSING_ROOM) {
      size += rendered[fits - lead.length]!.length + 1;
      fits++;
    }
    const shownItems = rest.slice(0, fits - lead.length);
    const lastShown = Math.max(firstRunEnd, ...shownItems.flatMap((item) => ("line" in item ? [item.line] : [])));
    lines = [...lines.slice(0, fits), ...(lastShown < totalLines ? [restOfReadNotice(input, lastShown + 1, totalLines, "are not all shown here")] : [])];
  }
  return { content: content.join("\n"), numLines: content.length, startLine: fileLine(first.start), context: lines.join("\n") };
}

/** The runs of lines a view kept: the read's lines less every omitted range; undefined when an omission has no range. */
function keptRuns(omissions: readonly OmittedLines[], totalLines: number): { start: number; count: number }[] | undefined {
  const omitted = new Uint8Array(totalLines + 2);
  for (const { startLine, endLine } of omissions) {
    if (startLine === undefined || endLine === undefined) return undefined;
    for (let line = Math.max(1, startLine); line <= Math.min(totalLines, endLine); line++) omitted[line] = 1;
  }
  const runs: { start: number; count: number }[] = [];
  for (let line = 1; line <= totalLines; line++) {
    if (omitted[line] === 1) continue;
    const last = runs.at(-1);
    if (last !== undefined && last.start + last.count === line) last.count++;
    else runs.push({ start: line, count: 1 });
  }
  return runs;
}

/**
 * The view's lines in order, each a notice or the next kept line (a line starting `[loupe] ` is a notice
 * unless it is the next kept line of the read itself); undefined when they do not match the kept lines
 * one for one.
 */
function itemsOf(viewText: string, runs: readonly { start: number; count: number }[], originalLines: readonly string[]): Item[] | undefined {
  const numbers = runs.flatMap(({ start, count }) => Array.from({ length: count }, (_, index) => start + index));
  const lines = viewText.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const items: Item[] = [];
  let next = 0;
  for (const text of lines) {
    const expected = next < numbers.length ? originalLines[numbers[next]! - 1] : undefined;
    if (text.startsWith("[loupe] ") && text !== expected) items.push({ notice: text });
    else if (next < numbers.length) items.push({ line: numbers[next++]!, text });
    else return undefined;
  }
  return next === numbers.length ? items : undefined;
}

const lengthOf = (lines: readonly string[]): number => lines.reduce((sum, line) => sum + line.length + 1, 0) - (lines.length > 0 ? 1 : 0);
