import { GREP_LINE, type GrepOutput } from "./grep-line.js";
import { parseHeadedGrepOutput } from "./headed-grep-output.js";

export { GREP_LINE, type GrepOutput } from "./grep-line.js";

// "path:12:text" (grep -n over several files, rg); the path is not a bare number.
const PATH_HIT = /^([^\s:]+):(\d+):/;
// "dir/file.ext:text" (grep -r without -n): only when the part before ":" is a path with a directory.
const PATH_ONLY_HIT = /^([^\s:]*\/[^\s:/]+\.[A-Za-z0-9]{1,10}):/;
const NUMBER_HIT = /^\d+:/;
const NUMBER_CONTEXT = /^\d+-/;
const SEPARATOR = /^--\r?\n?$/;
const HEADING = /^[^\s:][^:]*[/.][^:]*\r?\n?$/;

/**
 * Takes grep / rg output apart: hit lines ("path:12:text", "12:text",
 * "path:text"), context lines ("path-12-text", "12-text"), "--" separators and,
 * in rg's heading mode, file heading lines. Output with no recognizable
 * structure counts as all hits of one unnamed file (`grep x file` prints bare
 * lines). `singleFile` names that file when the command shows it. The forms of the
 * runtimes' own search tools (OpenCode's grep, Gemini CLI's grep_search: a heading per file,
 * then "  Line 12: text" or "L12: text") are read as such. Pure; linear.
 */
export function parseGrepOutput(lines: readonly string[], singleFile = ""): GrepOutput {
  const headed = parseHeadedGrepOutput(lines);
  if (headed !== undefined) return headed;
  const total = lines.length;
  const roles = new Uint8Array(total);
  const fileOf = new Int32Array(total).fill(-1);
  const files: string[] = [];
  const hits: number[][] = [];
  const ids = new Map<string, number>();
  const fileId = (name: string): number => {
    let id = ids.get(name);
    if (id === undefined) {
      id = files.length;
      ids.set(name, id);
      files.push(name);
      hits.push([]);
    }
    return id;
  };
  // Hits that name their file. Consecutive hits mostly share one: test for it before matching.
  let last = "\n";
  let lastId = -1;
  for (let index = 0; index < total; index++) {
    const line = lines[index] ?? "";
    if (line.startsWith(last) && numberThenColon(line, last.length)) {
      roles[index] = GREP_LINE.hit;
      fileOf[index] = lastId;
      continue;
    }
    if (SEPARATOR.test(line)) {
      roles[index] = GREP_LINE.separator;
      continue;
    }
    const match = PATH_HIT.exec(line) ?? PATH_ONLY_HIT.exec(line);
    if (!match || /^\d+$/.test(match[1] ?? "")) continue;
    roles[index] = GREP_LINE.hit;
    fileOf[index] = fileId(match[1] ?? "");
    [last, lastId] = match[2] === undefined ? ["\n", -1] : [`${match[1] ?? ""}:`, fileOf[index] ?? -1];
  }
  attachContext(lines, roles, fileOf, files);
  // Numbered lines under rg headings, or of a single-file grep.
  let current = -1;
  for (let index = 0; index < total; index++) {
    if (roles[index] !== GREP_LINE.other) continue;
    const line = lines[index] ?? "";
    const numbered = NUMBER_HIT.test(line) ? GREP_LINE.hit : NUMBER_CONTEXT.test(line) ? GREP_LINE.context : undefined;
    if (numbered === undefined) {
      const next = lines[index + 1] ?? "";
      const startsBlock = index === 0 || (lines[index - 1] ?? "").trim() === "";
      if (startsBlock && HEADING.test(line) && (NUMBER_HIT.test(next) || NUMBER_CONTEXT.test(next))) {
        current = fileId(line.replace(/\r?\n$/, ""));
        roles[index] = GREP_LINE.heading;
        fileOf[index] = current;
      }
      continue;
    }
    roles[index] = numbered;
    fileOf[index] = current === -1 ? fileId(singleFile) : current;
  }
  if (files.length === 0) markAllHits(lines, roles, fileOf, fileId(singleFile));
  for (let index = 0; index < total; index++) if (roles[index] === GREP_LINE.hit) hits[fileOf[index] ?? 0]?.push(index);
  return { roles, fileOf, files, hits };
}

/** Context lines "path-12-text" / "path-text" belong to the file of the hit before or after them. */
function attachContext(lines: readonly string[], roles: Uint8Array, fileOf: Int32Array, files: readonly string[]): void {
  const next = new Int32Array(lines.length + 1).fill(-1);
  for (let index = lines.length - 1; index >= 0; index--) next[index] = roles[index] === GREP_LINE.hit ? (fileOf[index] ?? -1) : (next[index + 1] ?? -1);
  let previous = -1;
  for (let index = 0; index < lines.length; index++) {
    if (roles[index] === GREP_LINE.hit) {
      previous = fileOf[index] ?? -1;
      continue;
    }
    if (roles[index] !== GREP_LINE.other) continue;
    const line = lines[index] ?? "";
    const candidate = startsWithFile(line, files, previous) ? previous : startsWithFile(line, files, next[index] ?? -1) ? (next[index] ?? -1) : -1;
    if (candidate === -1) continue;
    roles[index] = GREP_LINE.context;
    fileOf[index] = candidate;
  }
}

/** True when `line` has one or more digits and then ":" at `from` (/^\d+:/ there, without slicing). */
function numberThenColon(line: string, from: number): boolean {
  let index = from;
  let code = line.charCodeAt(index);
  while (code >= 0x30 && code <= 0x39) code = line.charCodeAt(++index);
  return index > from && code === 0x3a;
}

function startsWithFile(line: string, files: readonly string[], id: number): boolean {
  const name = files[id];
  return name !== undefined && line.startsWith(name) && line[name.length] === "-";
}

function markAllHits(lines: readonly string[], roles: Uint8Array, fileOf: Int32Array, file: number): void {
  for (let index = 0; index < lines.length; index++) {
    if (roles[index] === GREP_LINE.separator || (lines[index] ?? "").trim() === "") continue;
    roles[index] = GREP_LINE.hit;
    fileOf[index] = file;
  }
}
