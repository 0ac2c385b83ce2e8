/** A file-read view a runtime can number itself: one contiguous run of the read's lines, and one notice line. */
export interface NumberedReadView {
  /** The read's first lines, as the tool gave them (no notice among them). */
  content: string;
  /** Lines in `content`. */
  numLines: number;
  /** The notice naming the lines not shown and the calls that read them; goes beside the lines, or after them where the runtime numbers nothing. */
  notice: string;
}

/** What the view needs to know of the read and of the saved result. */
export interface NumberedReadInput {
  /** The read's content as the tool returned it. */
  original: string;
  /** How many characters the view may take (the size of Loupe's own view of the read). */
  sizeChars: number;
  /** The file line the content starts at (the runtime numbers from it). */
  startLine: number;
  resultId: string;
  filePath?: string;
}

// Room kept for the notice line itself.
const NOTICE_ROOM = 400;

/**
 * For runtimes that number a read's lines themselves from `startLine` (Claude Code's Read):
 * a view cannot carry a gap there, or every line after it would be shown with a wrong number.
 * So the view keeps the read's first lines, as many as fit in `sizeChars`, each numbered
 * truly by the runtime, and one notice line naming the lines not shown and the exact calls
 * that read them (Loupe's read_result continuation and the runtime's own Read arguments). The
 * notice is not part of `content`: the runtime would number it as a line of the file. Undefined
 * when every line fits.
 */
export function numberedReadView(input: NumberedReadInput): NumberedReadView | undefined {
  const lines = input.original.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const total = lines.length;
  let kept = 0;
  let size = 0;
  while (kept < total && size + (lines[kept]?.length ?? 0) + 1 <= Math.max(0, input.sizeChars - NOTICE_ROOM)) {
    size += (lines[kept]?.length ?? 0) + 1;
    kept++;
  }
  // A single line longer than the room is still shown: a read always advances.
  if (kept === 0) kept = 1;
  if (kept >= total) return undefined;
  return { content: lines.slice(0, kept).join("\n"), numLines: kept, notice: restOfReadNotice(input, kept + 1, total, "are not shown") };
}

/**
 * The notice for a read's lines `from`–`total` (1-based, in the read's own lines) that a layout does not
 * show: their file numbers (the read starts at file line `startLine`), and the exact calls that read them —
 * Loupe's read_result continuation, and the runtime's own Read when the file's path is known.
 */
export function restOfReadNotice(
  read: { resultId: string; startLine: number; filePath?: string },
  from: number,
  total: number,
  verb: "are not shown" | "are not all shown here",
): string {
  const first = read.startLine + from - 1;
  const last = read.startLine + total - 1;
  const recover = JSON.stringify({ result_id: read.resultId, start_line: from, end_line: total });
  const call = read.filePath === undefined ? "" : ` or Read ${JSON.stringify({ file_path: read.filePath, offset: first, limit: last - first + 1 })}`;
  return `[loupe] lines ${String(first)}–${String(last)} of this read ${verb}; read them with read_result ${recover}${call}`;
}
