import type { FileAccess } from "./extractive-state.js";
import { LIMITS } from "./extractive-state.js";
import { shellCommands } from "./shell-words.js";
import type { ShellCommand } from "./shell-words.js";

/** A file a tool call names and how it touches it. */
export interface FileTouch {
  path: string;
  access: FileAccess;
}

/** Argument names file tools give their file in, most specific first. */
const FILE_PATH_KEYS = ["file_path", "filePath", "notebook_path", "target_file", "absolute_path", "path", "filename", "file"] as const;
// A search tool's `path` is where it searched, not a file it touched.
const SEARCH_KEYS = ["pattern", "query", "regex", "glob"];
const SEARCH_TOOL = /grep|glob|search|find|list|^ls$/i;
const EDITOR_COMMANDS: Readonly<Record<string, FileAccess>> = {
  view: "read",
  create: "created",
  str_replace: "edited",
  insert: "edited",
  undo_edit: "edited",
  edit: "edited",
};
const PATCH_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;
// A script that opens a file (`open("a.py", "w")`): agents often edit files through small Python programs.
const PYTHON_OPEN = /\bopen\(\s*(['"])([^'"\n]+)\1\s*(?:,\s*(?:mode\s*=\s*)?(['"])([rwabxt+]+)\3)?/g;
const EXTENSIONLESS = /^(Makefile|Dockerfile|Containerfile|Gemfile|Rakefile|Procfile|Justfile|Vagrantfile|README|LICENSE|CHANGELOG|NOTICE)$/;

/**
 * The path as a note shows it: "./" prefixes and repeated slashes removed.
 * Undefined when it is not a plausible file path (blank, too long, a URL, an
 * option, a directory, a glob or shell expansion, /dev/…).
 */
export function normalizePath(raw: string): string | undefined {
  const path = raw
    .trim()
    .replace(/\/{2,}/g, "/")
    .replace(/(^|\/)(\.\/)+/g, "$1");
  if (path === "" || path.length > LIMITS.pathChars || path.endsWith("/") || path === "." || path === "..") return undefined;
  if (/[\s*?$`{}<>|;&"'\\]|:\/\/|^-|^\/dev\/|^\/proc\//.test(path)) return undefined;
  return path;
}

/** Whether a word of a shell command looks like a file: it has a directory part, an extension or a well-known name. */
export function looksLikeFile(word: string): boolean {
  if (normalizePath(word) === undefined || /^[\d.:,+-]+$/.test(word)) return false;
  const base = word.slice(word.lastIndexOf("/") + 1);
  return word.includes("/") || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(base) || EXTENSIONLESS.test(base);
}

/**
 * The files a tool call touches: the file argument of a file tool (access by
 * the tool's name or its editor `command`), each file of an apply_patch text
 * (`*** Update File: x`), and what a shell script reads, writes, edits,
 * moves or deletes (`cat F`, `sed -i … F`, `cat > F <<EOF`, `tee F`, `mv A B`,
 * `cp A B`, `rm F`, `open("F", "w")` in an inline script). Search tools (Grep, Glob) touch no file. In call order,
 * without duplicates of the same path and access.
 */
export function filesOfCall(name: string, args: Readonly<Record<string, unknown>>, command: string): FileTouch[] {
  const touches: FileTouch[] = [];
  const add = (raw: string, access: FileAccess): void => {
    const path = normalizePath(raw);
    if (path !== undefined && !touches.some((touch) => touch.path === path && touch.access === access)) touches.push({ path, access });
  };
  for (const text of [command, ...Object.values(args).filter((value): value is string => typeof value === "string" && value.includes("*** "))]) {
    for (const match of text.matchAll(PATCH_HEADER)) {
      if (match[3] !== undefined) add(match[3], "created");
      else add(match[2] ?? "", match[1] === "Add" ? "created" : match[1] === "Delete" ? "deleted" : "edited");
    }
  }
  if (command !== "") {
    for (const simple of shellCommands(command)) shellTouches(simple, add);
    for (const match of command.matchAll(PYTHON_OPEN)) {
      if (looksLikeFile(match[2] ?? "")) add(match[2] ?? "", /[wax+]/.test(match[4] ?? "") ? "edited" : "read");
    }
    return touches;
  }
  if (SEARCH_TOOL.test(name) || SEARCH_KEYS.some((key) => key in args)) return touches;
  const key = FILE_PATH_KEYS.find((candidate) => typeof args[candidate] === "string" && args[candidate] !== "");
  if (key !== undefined) add(args[key] as string, accessOfTool(name, args));
  const paths = args["paths"] ?? args["file_paths"];
  if (Array.isArray(paths)) for (const path of paths) if (typeof path === "string") add(path, "read");
  return touches;
}

function accessOfTool(name: string, args: Readonly<Record<string, unknown>>): FileAccess {
  const editorCommand = args["command"];
  if (typeof editorCommand === "string" && EDITOR_COMMANDS[editorCommand] !== undefined) return EDITOR_COMMANDS[editorCommand];
  if (/delete|remove/i.test(name)) return "deleted";
  if (/write|create|new_?file|save/i.test(name)) return "created";
  if (/edit|replace|insert|patch|update|modify/i.test(name)) return "edited";
  if (/read|view|open|cat|show|get/i.test(name)) return "read";
  return "used";
}

const WRAPPERS = new Set(["sudo", "time", "env", "nohup", "command", "exec", "xargs"]);
const READERS = new Set(["cat", "head", "tail", "nl", "less", "more", "bat", "open", "view", "wc"]);

function shellTouches(simple: ShellCommand, add: (raw: string, access: FileAccess) => void): void {
  for (const { op, fd, target } of simple.redirects) {
    if (!looksLikeFile(target) || (fd !== "" && fd !== "1")) continue;
    add(target, op === "<" ? "read" : op === ">>" ? "edited" : "created");
  }
  let words = simple.words;
  while (words.length > 0 && (WRAPPERS.has(words[0] ?? "") || /^[A-Za-z_]\w*=/.test(words[0] ?? ""))) words = words.slice(1);
  const program = (words[0] ?? "").replace(/^.*\//, "");
  const operands = words.slice(1).filter((word) => !word.startsWith("-"));
  const files = operands.filter(looksLikeFile);
  if (READERS.has(program)) return files.forEach((file) => add(file, "read"));
  switch (program) {
    case "sed":
      return sedTouches(words.slice(1), add);
    case "tee":
      return files.forEach((file) => add(file, words.includes("-a") ? "edited" : "created"));
    case "touch":
    case "create":
      return files.forEach((file) => add(file, "created"));
    case "rm":
    case "unlink":
      return files.forEach((file) => add(file, "deleted"));
    case "vim":
    case "vi":
    case "nano":
    case "emacs":
      return files.forEach((file) => add(file, "edited"));
    case "cp":
    case "mv":
      return copyTouches(program, operands, add);
    default:
      return;
  }
}

function sedTouches(args: string[], add: (raw: string, access: FileAccess) => void): void {
  const inPlace = args.some((word) => /^-[a-zA-Z]*i/.test(word) || word.startsWith("--in-place"));
  const scripted = args.some((word) => word === "-e" || word === "-f" || word.startsWith("--expression"));
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] ?? "";
    if (word === "-e" || word === "-f") index++;
    else if (!word.startsWith("-")) operands.push(word);
  }
  // Without -e the first operand is the sed script, not a file.
  const files = (scripted ? operands : operands.slice(1)).filter(looksLikeFile);
  files.forEach((file) => add(file, inPlace ? "edited" : "read"));
}

function copyTouches(program: string, operands: string[], add: (raw: string, access: FileAccess) => void): void {
  if (operands.length !== 2) return;
  const [source = "", target = ""] = operands;
  if (!looksLikeFile(source)) return;
  add(source, program === "mv" ? "deleted" : "read");
  const base = source.slice(source.lastIndexOf("/") + 1);
  // `cp a.py dir` copies into dir; name the copy only when the target names a file.
  if (looksLikeFile(target)) add(target, "created");
  else if (normalizePath(target) !== undefined && !target.includes(".")) add(`${target.replace(/\/$/, "")}/${base}`, "created");
}
