import type { ResultKind } from "../projectors/projector.js";
import { parseShell } from "./parse-shell.js";
import type { Pipeline } from "./parse-shell.js";
import { programKind, programOf, SEARCH_PROGRAMS } from "./program-kind.js";
import type { ProgramKind } from "./program-kind.js";

/**
 * The kind of output a shell command line produces, judged from the first
 * command whose standard output reaches the result: `cd x &&`, env
 * assignments, `sudo`/`timeout`/`env` wrappers, silent commands (cp, mkdir,
 * `sed -i` …) and commands whose stdout goes to a file are passed over.
 *
 * - `cat`/`nl`/`head`/`tail`/`sed -n`/`awk` of a file → "file_read"; piped into
 *   grep/rg → "search" (`cat f | grep x`).
 * - grep, rg, ag, ack, `git grep`, `find … -exec grep`, `find | xargs grep` → "search"; printing file names
 *   alone (`grep -l`, `rg --files`, `git grep -l`: see `printsFileNames`) → "directory_list".
 * - ls, find, tree, fd, pwd, `git ls-files` → "directory_list".
 * - A line that only writes files (`sed -i`, `echo … > f`, `cat > f <<EOF`, patch) → "edit".
 * - Everything else (interpreters, test runners, compilers, git, pip, loops …) → "command".
 */
export function shellKind(commandLine: string): ResultKind {
  let writes = false;
  for (const pipeline of parseShell(commandLine)) {
    const outcome = pipelineKind(pipeline);
    if (!outcome.silent) return outcome.kind;
    writes ||= outcome.writes;
  }
  return writes ? "edit" : "command";
}

function pipelineKind(pipeline: Pipeline): ProgramKind {
  const [first] = pipeline;
  const last = pipeline[pipeline.length - 1];
  if (first === undefined || last === undefined) return { kind: "command", silent: true, writes: false };
  const firstKind = programKind(first.words);
  // The pipeline's output is its last command's stdout: redirected, the pipeline prints nothing.
  if (last.stdout !== "output") return { kind: "edit", silent: true, writes: firstKind.writes || last.stdout === "file" };
  if (pipeline.length === 1) return firstKind;
  const later = pipeline.slice(1).map((command) => programOf(command.words).program);
  if (firstKind.kind === "file_read" && later.some((program) => SEARCH_PROGRAMS.has(program))) return { ...firstKind, kind: "search" };
  if (firstKind.kind === "directory_list" && pipeline.slice(1).some((command) => isXargsSearch(command.words))) return { ...firstKind, kind: "search" };
  // A silent first command piped into another (rare) still prints what the pipe's end prints.
  return firstKind.silent ? { kind: "command", silent: false, writes: firstKind.writes } : firstKind;
}

/** `… | xargs grep …`: grep run on each path the listing printed. */
function isXargsSearch(words: readonly string[]): boolean {
  const runner = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? "";
  const { program } = programOf(words);
  return runner.slice(runner.lastIndexOf("/") + 1) === "xargs" && SEARCH_PROGRAMS.has(program) && programKind(words).kind === "search";
}
