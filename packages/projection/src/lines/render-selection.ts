import { formatLine } from "../format-number.js";
import type { LineOmission } from "../head-tail-view.js";

/** How a projector words the notice for one omitted run (1-based, inclusive line numbers). */
export type DescribeGap = (startLine: number, endLine: number, totalLines: number) => { description: string; continuationJson: string };

/** Options for {@link renderSelection}. */
export interface RenderOptions {
  /** Notice lines (each starting with "[loupe") placed before everything. */
  header: readonly string[];
  /** The text shown for a kept line (default: the line itself). */
  display?: (index: number) => string;
  describeGap: DescribeGap;
  /**
   * Notices after the first say only the lines and the range to recover (see briefGapNotice): the
   * first names the result; each omission still carries its whole continuation.
   */
  briefGaps?: boolean;
}

/**
 * A later gap's notice when the first already named the result: "[loupe] lines 106–129 omitted;
 * recover as above with {"start_line":106,"end_line":129}" — the same continuation less its
 * result_id. Without a continuation (nothing saved), the lines alone.
 */
export function briefGapNotice(startLine: number, endLine: number, continuationJson: string): string {
  const range = startLine === endLine ? `line ${formatLine(startLine)}` : `lines ${formatLine(startLine)}–${formatLine(endLine)}`;
  if (continuationJson === "") return `[loupe] ${range} omitted`;
  return `[loupe] ${range} omitted; recover as above with ${JSON.stringify({ start_line: startLine, end_line: endLine })}`;
}

/**
 * Writes the view of a selection: header notices, kept lines in their
 * original order, and one notice line per omitted run, which becomes an
 * omission. A notice is always a line of its own. A kept line shown in
 * another form (`display`) also becomes an omission, without a notice line,
 * so the view plus its omissions still rebuild the original exactly.
 */
export function renderSelection(lines: readonly string[], kept: Uint8Array, options: RenderOptions): { text: string; omissions: LineOmission[] } {
  const parts: string[] = options.header.map((line) => line + "\n");
  const omissions: LineOmission[] = [];
  const display = options.display ?? ((index: number) => lines[index] ?? "");
  // Whether a notice in the text already named the result (later ones may then be brief).
  let named = false;
  const endsLine = (): boolean => parts.length === 0 || (parts[parts.length - 1] ?? "").endsWith("\n");
  let index = 0;
  while (index < lines.length) {
    if (kept[index] === 1) {
      const shown = display(index);
      parts.push(shown);
      // A line shown in another form (a progress bar's final state) is still recoverable as it was.
      if (shown !== lines[index]) {
        const gap = options.describeGap(index + 1, index + 1, lines.length);
        omissions.push({
          startLine: index + 1,
          endLine: index + 1,
          description: `${gap.description} (shown in its final state)`,
          continuationJson: gap.continuationJson,
        });
      }
      index++;
      continue;
    }
    const start = index;
    while (index < lines.length && kept[index] !== 1) index++;
    const gap = options.describeGap(start + 1, index, lines.length);
    if (!endsLine()) parts.push("\n");
    const brief = options.briefGaps === true && named;
    parts.push((brief ? briefGapNotice(start + 1, index, gap.continuationJson) : gap.description) + "\n");
    named ||= gap.continuationJson !== "";
    omissions.push({ startLine: start + 1, endLine: index, description: gap.description, continuationJson: gap.continuationJson });
  }
  return { text: parts.join(""), omissions };
}
