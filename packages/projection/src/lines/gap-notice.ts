import { continuationJson } from "../continuation.js";
import { formatLine, formatNumber } from "../format-number.js";
import type { DescribeGap } from "./render-selection.js";

/**
 * The standard notice for omitted lines: "[loupe] lines 121–4,480 of 5,000
 * omitted; recover with {…}", or "… of src/app.ts (5,000 lines) …" when the
 * lines belong to a named file. Without a result id nothing was saved, and the
 * notice says so instead of offering a continuation.
 */
export function lineGapNotice(resultId: string, label = ""): DescribeGap {
  return (startLine, endLine, totalLines) => {
    const range = startLine === endLine ? `line ${formatLine(startLine)}` : `lines ${formatLine(startLine)}–${formatLine(endLine)}`;
    const of = label === "" ? formatNumber(totalLines) : `${label} (${formatNumber(totalLines)} lines)`;
    const what = `[loupe] ${range} of ${of} omitted`;
    if (resultId === "") return { description: `${what}; the full result could not be saved`, continuationJson: "" };
    const json = continuationJson({ result_id: resultId, start_line: startLine, end_line: endLine });
    return { description: `${what}; recover with ${json}`, continuationJson: json };
  };
}
