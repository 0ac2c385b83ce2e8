import { GREP_LINE, type GrepOutput } from "./grep-line.js";

/** A runtime search tool's output form: a line naming a file, then that file's numbered lines. */
interface HeadedFormat {
  /** A file's heading; group 1 is its name. */
  heading: RegExp;
  hit: RegExp;
  context?: RegExp;
}

// The agent runtimes' own search tools (test/runtimes/FINDINGS.md): OpenCode's grep prints "/abs/a.ts:" and then
// "  Line 12: text" (blank lines between); Gemini CLI's grep_search prints "File: a.ts" and then "L12: text",
// with context lines "L11- text".
const FORMATS: readonly HeadedFormat[] = [
  { heading: /^(\S.*):\r?\n?$/, hit: /^ {2}Line \d+: / },
  { heading: /^File: (\S.*?)\r?\n?$/, hit: /^L\d+: /, context: /^L\d+- / },
];

/** The format whose heading is followed (past blank lines) by one of its hit or context lines, first in the output. */
function formatOf(lines: readonly string[]): HeadedFormat | undefined {
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const format = FORMATS.find((candidate) => candidate.heading.test(line));
    if (format === undefined) continue;
    let next = index + 1;
    while ((lines[next] ?? "x").trim() === "") next++;
    const following = lines[next] ?? "";
    if (format.hit.test(following) || format.context?.test(following) === true) return format;
  }
  return undefined;
}

/**
 * Takes apart the output of a runtime's own search tool (OpenCode's grep, Gemini CLI's
 * grep_search): headings naming files, their hit and context lines; other lines (a "Found N
 * matches" line, separators, blank lines) stay `other`. Undefined when the output is not in one of
 * these forms. Pure; linear.
 */
export function parseHeadedGrepOutput(lines: readonly string[]): GrepOutput | undefined {
  const format = formatOf(lines);
  if (format === undefined) return undefined;
  const roles = new Uint8Array(lines.length);
  const fileOf = new Int32Array(lines.length).fill(-1);
  const files: string[] = [];
  const hits: number[][] = [];
  let current = -1;
  lines.forEach((line, index) => {
    const heading = format.heading.exec(line);
    if (heading !== null) {
      current = files.length;
      files.push(heading[1] ?? "");
      hits.push([]);
      roles[index] = GREP_LINE.heading;
      fileOf[index] = current;
      return;
    }
    if (current < 0) return;
    const role = format.hit.test(line) ? GREP_LINE.hit : format.context?.test(line) === true ? GREP_LINE.context : undefined;
    if (role === undefined) return;
    roles[index] = role;
    fileOf[index] = current;
    if (role === GREP_LINE.hit) hits[current]?.push(index);
  });
  return { roles, fileOf, files, hits };
}
