import { shellWords, type ShellWords } from "../kinds/shell-words.js";

/** What a shell command that prints (part of) one file reads. */
export interface ShellFileRead {
  /** The file as the command names it (relative to the command's working directory). */
  path: string;
  /** The file's line number of the output's first line (1-based); undefined when it depends on the file's length (`tail -n 20`). */
  firstLine: number | undefined;
  /** True when the output is the whole file (`cat F`, `nl F`: no line range). */
  wholeFile: boolean;
}

// Commands allowed before the read: they print nothing.
const QUIET_SETUP = new Set(["cd", "pushd", "export", "set", "source", ".", "true"]);
const CAT_FLAGS = /^-[nbsvetAET]+$/;
const NL_FLAGS = /^-(?:b[atn]?|ba|n[lnrz]{1,2}|w\d*|s.?)$/;

/**
 * Recognizes a shell command whose output is (part of) one file: `cat F`,
 * `cat -n F`, `nl F`, `sed -n 'A,Bp' F`, `head -n N F`, `tail -n N F`, after
 * setup such as `cd dir &&`, optionally piped through line-range filters
 * (`cat -n F | sed -n 'A,Bp'`, `nl -ba F | head -50`). Returns the file and the
 * file line the output starts at, or undefined for anything else (several
 * files, a grep in the pipeline, here-documents). Pure.
 */
export function isShellFileRead(command: string): ShellFileRead | undefined {
  const pipelines = shellWords(command);
  if (pipelines === undefined || pipelines.length === 0) return undefined;
  const before = pipelines.slice(0, -1);
  if (!before.every((pipeline) => pipeline.length === 1 && QUIET_SETUP.has(pipeline[0]?.[0] ?? ""))) return undefined;
  const [first, ...filters] = pipelines[pipelines.length - 1] ?? [];
  if (first === undefined) return undefined;
  const source = readsFile(first);
  if (source === undefined) return undefined;
  let firstLine = source.firstLine;
  for (const filter of filters) {
    const step = filterOffset(filter);
    if (step === undefined) return undefined;
    firstLine = firstLine === undefined || step === "unknown" ? undefined : firstLine + step;
  }
  return { path: source.path, firstLine, wholeFile: source.wholeFile && filters.every((filter) => filter[0] === "cat" || filter[0] === "nl") };
}

/** The file a read command prints and its first line, when the command is one. */
function readsFile(words: ShellWords): ShellFileRead | undefined {
  const [program, ...rest] = words;
  const operands = rest.filter((word) => !word.startsWith("-") || word === "-");
  if (program === "cat" || program === "nl") {
    const flags = program === "cat" ? CAT_FLAGS : NL_FLAGS;
    if (!rest.every((word) => !word.startsWith("-") || flags.test(word))) return undefined;
    return single(operands, 1, true);
  }
  const range = lineRange(program ?? "", rest);
  if (range === undefined || range.operands.length !== 1) return undefined;
  return single(range.operands, range.offset === "unknown" ? undefined : range.offset + 1, false);
}

function single(operands: readonly string[], firstLine: number | undefined, wholeFile: boolean): ShellFileRead | undefined {
  const [path] = operands;
  if (operands.length !== 1 || path === undefined || path === "-") return undefined;
  return { path, firstLine, wholeFile };
}

/** Lines a filter drops before its first printed line, or "unknown"; undefined when the command is not a line-range filter. */
function filterOffset(words: ShellWords): number | "unknown" | undefined {
  const [program, ...rest] = words;
  if (program === "cat" || program === "nl") {
    const flags = program === "cat" ? CAT_FLAGS : NL_FLAGS;
    return rest.every((word) => flags.test(word)) ? 0 : undefined;
  }
  const range = lineRange(program ?? "", rest);
  if (range === undefined || range.operands.length !== 0) return undefined;
  return range.offset;
}

/**
 * Parses `sed -n 'A,Bp'`, `head [-n N|-N]`, `tail [-n N|-n +K|-N]`: the
 * number of input lines skipped before the first printed one, and the
 * remaining operands (file names).
 */
function lineRange(program: string, rest: readonly string[]): { offset: number | "unknown"; operands: string[] } | undefined {
  if (program === "sed") {
    if (rest[0] !== "-n" || rest.length < 2) return undefined;
    const match = /^(\d+)(?:,(\d+|\$))?p$/.exec((rest[1] ?? "").replace(/;$/, ""));
    if (!match) return undefined;
    return { offset: Math.max(0, Number(match[1]) - 1), operands: rest.slice(2) };
  }
  if (program !== "head" && program !== "tail") return undefined;
  // A plain `tail F` prints the last ten lines: where they start depends on the file.
  let offset: number | "unknown" = program === "tail" ? "unknown" : 0;
  const operands: string[] = [];
  for (let index = 0; index < rest.length; index++) {
    const word = rest[index] ?? "";
    let count: string | undefined;
    if (word === "-n" || word === "--lines") count = rest[++index];
    else if (/^-n.+$/.test(word)) count = word.slice(2);
    else if (word.startsWith("--lines=")) count = word.slice("--lines=".length);
    else if (/^-\d+$/.test(word)) count = word.slice(1);
    else if (word.startsWith("-") && word !== "-") return undefined;
    else {
      operands.push(word);
      continue;
    }
    if (count === undefined || !/^[+-]?\d+$/.test(count)) return undefined;
    if (program === "tail") offset = count.startsWith("+") ? Math.max(0, Number(count.slice(1)) - 1) : "unknown";
  }
  return { offset, operands };
}
