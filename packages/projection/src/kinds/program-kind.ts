import type { ResultKind } from "../projectors/projector.js";
import { printsFileNames } from "./files-only.js";

/** What one simple command contributes to a command line's output. */
export interface ProgramKind {
  kind: ResultKind;
  /** Prints nothing on success (cd, cp, sed -i …): the output comes from another command. */
  silent: boolean;
  /** Changes a file (sed -i, patch …). */
  writes: boolean;
}

/** Programs whose output is lines that match a pattern. */
export const SEARCH_PROGRAMS: ReadonlySet<string> = new Set(["grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ack-grep", "pcregrep", "ugrep"]);
const READ_PROGRAMS = new Set(["cat", "nl", "tac", "less", "more", "bat", "batcat"]);
const LIST_PROGRAMS = new Set(["ls", "tree", "fd", "fdfind", "locate", "exa", "eza", "dir", "pwd"]);
const SILENT_PROGRAMS = new Set([
  "cd",
  "pushd",
  "popd",
  "export",
  "unset",
  "set",
  "source",
  ".",
  "alias",
  "unalias",
  "ulimit",
  "umask",
  "true",
  "false",
  ":",
  "mkdir",
  "cp",
  "mv",
  "rm",
  "rmdir",
  "touch",
  "chmod",
  "chown",
  "chgrp",
  "ln",
  "sleep",
  "wait",
  "clear",
  "shopt",
  "trap",
  "declare",
  "local",
  "readonly",
  "hash",
  "test",
  "[",
  "[[",
]);
const COMPOUND_WORDS = new Set(["if", "for", "while", "until", "case", "select", "function"]);
/** Wrappers that run the command after them; the value lists their options that take an argument. */
const WRAPPERS = new Map<string, ReadonlySet<string>>([
  ["sudo", new Set(["-u", "-g", "-C", "-h", "-p", "-U", "-r", "-t", "-D"])],
  ["env", new Set(["-u", "-C", "-S"])],
  ["nice", new Set(["-n"])],
  ["timeout", new Set(["-s", "-k"])],
  ["stdbuf", new Set(["-o", "-e", "-i"])],
  ["time", new Set(["-f", "-o"])],
  ["nohup", new Set()],
  ["exec", new Set(["-a"])],
  ["command", new Set()],
  ["builtin", new Set()],
  ["noglob", new Set()],
  ["unbuffer", new Set()],
  ["!", new Set()],
  ["{", new Set()],
  ["xargs", new Set(["-I", "-n", "-P", "-d", "-L", "-a", "-E", "-s"])],
]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const COMMAND: ProgramKind = { kind: "command", silent: false, writes: false };
const of = (kind: ResultKind): ProgramKind => ({ kind, silent: false, writes: false });

/** The program a simple command runs (basename, lowercase) and its arguments, past env assignments and wrappers. */
export function programOf(words: readonly string[]): { program: string; args: string[] } {
  let index = 0;
  for (;;) {
    while (index < words.length && ASSIGNMENT.test(words[index] as string)) index++;
    const name = baseName(words[index] ?? "");
    const optionsWithValue = WRAPPERS.get(name);
    if (optionsWithValue === undefined) return { program: name, args: words.slice(index + 1) };
    index++;
    while (index < words.length && (words[index] as string).startsWith("-")) {
      const option = words[index] as string;
      index += optionsWithValue.has(option) ? 2 : 1;
      if (option === "--") break;
    }
    // timeout's first operand is the duration, not the command.
    if (name === "timeout" && index < words.length) index++;
  }
}

function baseName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1).toLowerCase();
}

/** Operands of a command: words that are not options (a lone "-" is stdin, not a file). */
function operands(args: readonly string[], optionsWithValue: ReadonlySet<string> = new Set()): string[] {
  const result: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") return [...result, ...args.slice(index + 1)];
    if (optionsWithValue.has(arg)) index++;
    else if (!arg.startsWith("-")) result.push(arg);
  }
  return result;
}

/** The kind of output one simple command produces, judged from its program and arguments. */
export function programKind(words: readonly string[]): ProgramKind {
  const { program, args } = programOf(words);
  // Only assignments ("x=$(…)") print nothing.
  if (words.length > 0 && words.every((word) => ASSIGNMENT.test(word))) return { kind: "command", silent: true, writes: false };
  if (program === "" || COMPOUND_WORDS.has(program)) return COMMAND;
  if (SILENT_PROGRAMS.has(program)) return { kind: "command", silent: true, writes: false };
  // `grep -l` and its kin print the names of the files that match: a list of paths.
  if (SEARCH_PROGRAMS.has(program)) return of(printsFileNames(program, args) ? "directory_list" : "search");
  if (READ_PROGRAMS.has(program)) return operands(args).length > 0 ? of("file_read") : COMMAND;
  if (program === "head" || program === "tail") return operands(args, new Set(["-n", "-c"])).length > 0 ? of("file_read") : COMMAND;
  if (LIST_PROGRAMS.has(program)) return of("directory_list");
  if (program === "find") return findKind(args);
  if (program === "sed") return sedKind(args);
  if (program === "awk" || program === "gawk" || program === "mawk") return awkKind(args);
  if (program === "git") return gitKind(args);
  if (program === "patch") return { kind: "edit", silent: false, writes: true };
  return COMMAND;
}

function findKind(args: readonly string[]): ProgramKind {
  for (let index = 0; index < args.length; index++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[index] as string)) continue;
    const executed = programKind(args.slice(index + 1));
    if (executed.kind === "search") return of("search");
  }
  return of("directory_list");
}

function sedKind(args: readonly string[]): ProgramKind {
  let scriptGiven = false;
  const files: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (/^-[a-zA-Z]*i/.test(arg) || arg.startsWith("--in-place") || /^-[a-zA-Z]*I$/.test(arg)) return { kind: "edit", silent: true, writes: true };
    if (arg === "-e" || arg === "-f" || arg === "--expression" || arg === "--file") {
      scriptGiven = true;
      index++;
    } else if (arg.startsWith("--expression=") || arg.startsWith("--file=")) scriptGiven = true;
    else if (arg === "-l") index++;
    else if (!arg.startsWith("-") || arg === "-") {
      if (scriptGiven) files.push(arg);
      else scriptGiven = true;
    }
  }
  return files.some((file) => file !== "-") ? of("file_read") : COMMAND;
}

function awkKind(args: readonly string[]): ProgramKind {
  let programGiven = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "-f") {
      programGiven = true;
      index++;
    } else if (arg === "-F" || arg === "-v") index++;
    else if (arg.startsWith("-")) continue;
    else if (!programGiven) programGiven = true;
    else if (!ASSIGNMENT.test(arg)) return of("file_read");
  }
  return COMMAND;
}

function gitKind(args: readonly string[]): ProgramKind {
  const subcommand = operands(args, new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace"]))[0];
  if (subcommand === "grep") return of(printsFileNames("grep", args.slice(args.indexOf("grep") + 1)) ? "directory_list" : "search");
  if (subcommand === "ls-files" || subcommand === "ls-tree") return of("directory_list");
  return COMMAND;
}
