/** How many lines the cheap inference helpers look at. */
export const INFERENCE_LINES = 50;

// `cat -n` / `nl` ("     12\t"), Claude Code's Read ("    12→"), SWE-agent's viewer ("12:").
const NUMBER_PREFIX = /^ *(\d{1,9})(?:\t|→|:)/;
// Lines a file viewer prints around the numbered lines.
const VIEWER_NOTE = /^(?:Here's the result of running `cat -n`|\[File: .*\]\s*$|\(\d+ more lines? (?:above|below)\)\s*$|\s*$)/;

/**
 * The line number a line-numbering tool printed at the start of `line`
 * ("     12\tcode", "    12→code", "12:code"), or undefined. Only
 * meaningful for output that {@link looksLikeNumberedFile}.
 */
export function printedLineNumber(line: string): number | undefined {
  const match = NUMBER_PREFIX.exec(line);
  return match ? Number(match[1]) : undefined;
}

/**
 * Cheap test (first 50 lines only) that output is a file printed with line
 * numbers (`cat -n`, `nl`, an agent's read tool): at least three numbered
 * lines, most lines numbered, and the numbers mostly consecutive. Viewer notes
 * ("[File: …]", "(12 more lines above)") and blank lines are ignored.
 */
export function looksLikeNumberedFile(lines: readonly string[]): boolean {
  let numbered = 0;
  let other = 0;
  let consecutive = 0;
  let previous: number | undefined;
  for (const line of lines.slice(0, INFERENCE_LINES)) {
    const number = printedLineNumber(line);
    if (number === undefined) {
      if (!VIEWER_NOTE.test(line)) other++;
      continue;
    }
    if (previous !== undefined && number === previous + 1) consecutive++;
    previous = number;
    numbered++;
  }
  return numbered >= 3 && numbered >= 4 * other && consecutive >= 0.8 * (numbered - 1);
}
