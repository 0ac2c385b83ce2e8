import { continuationJson } from "../continuation.js";
import { formatLine, formatNumber } from "../format-number.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { DescribeGap } from "../lines/render-selection.js";
import type { ReadSource } from "./read-source.js";

/**
 * The notice for lines omitted from a file read. A whole file (`cat F`) gets
 * the standard wording, "[loupe] lines 121–4,480 of src/app.ts (5,000 lines)
 * omitted; recover with {…}"; a part of one names the file and, when they
 * differ from the output's, the file's own line numbers: "[loupe] lines
 * 21–80 of 101 omitted (src/app.ts lines 1,020–1,079); recover with {…}".
 * When the agent read with its own tool, the notice adds that tool's call for
 * the same file lines: "… or Read {"file_path":"src/app.ts","offset":121,"limit":4360}".
 */
export function fileGapNotice(resultId: string, source: ReadSource): DescribeGap {
  const standard = lineGapNotice(resultId, source.wholeFile ? source.path : "");
  return (startLine, endLine, totalLines) => {
    const range = source.fileRange(startLine - 1, endLine - 1);
    const base =
      source.wholeFile || source.path === ""
        ? standard(startLine, endLine, totalLines)
        : partNotice(resultId, source.path, range, startLine, endLine, totalLines);
    if (range === undefined || source.toolCall === undefined) return base;
    const call = source.toolCall(range.from, range.to);
    const description = resultId === "" ? `${base.description}; read it again with ${call}` : `${base.description} or ${call}`;
    return { description, continuationJson: base.continuationJson };
  };
}

function partNotice(
  resultId: string,
  path: string,
  range: { from: number; to: number } | undefined,
  startLine: number,
  endLine: number,
  totalLines: number,
): { description: string; continuationJson: string } {
  const lines = (from: number, to: number): string => (from === to ? `line ${formatLine(from)}` : `lines ${formatLine(from)}–${formatLine(to)}`);
  const where = range === undefined ? `from ${path}` : range.from === startLine && range.to === endLine ? path : `${path} ${lines(range.from, range.to)}`;
  const what = `[loupe] ${lines(startLine, endLine)} of ${formatNumber(totalLines)} omitted (${where})`;
  if (resultId === "") return { description: `${what}; the full result could not be saved`, continuationJson: "" };
  const json = continuationJson({ result_id: resultId, start_line: startLine, end_line: endLine });
  return { description: `${what}; recover with ${json}`, continuationJson: json };
}
