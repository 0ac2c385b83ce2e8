import type { ResultKind } from "../projectors/projector.js";
import { contentKind, isPathList } from "./content-kind.js";
import { shellKind } from "./shell-kind.js";
import { normalizeToolName, toolNameKind } from "./tool-name-kind.js";

/** What `inferKind` looks at. */
export interface InferKindInput {
  toolName: string;
  /** The call's arguments, parsed from args_json ({} when absent). */
  args: Readonly<Record<string, unknown>>;
  /** The result's canonical text; only its first 50 lines are read. */
  text: string;
  /** The kind the request declared; undefined when it was TOOL_KIND_UNSPECIFIED. */
  declared?: ResultKind | undefined;
}

const COMMAND_KEYS = ["command", "cmd", "script", "command_line", "commandLine"] as const;
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh"]);
const DIRECTORY_VIEW = /files and directories|directory listing/i;

/**
 * The kind of a tool result, which picks its projector. A declared kind wins.
 * Otherwise, in order: the tool's name (see `toolNameKind`); for shells,
 * including tools not known by name that carry a command string, the command
 * line (see `shellKind`: the first program whose output reaches the result); for
 * editor tools (str_replace_editor …) their sub-command (`view` → file_read,
 * or directory_list for a directory; anything else → edit); and only when
 * name and arguments say nothing, the first 50 lines of the text (see
 * `contentKind`). A search whose first 50 lines are file names alone (`grep -l`, `rg --files`, Claude Code's
 * Grep in files_with_matches mode) is a "directory_list" (see `isPathList`). Pure and cheap: never reads the
 * whole text.
 */
export function inferKind(input: InferKindInput): ResultKind {
  if (input.declared !== undefined) return input.declared;
  const kind = kindByCall(input);
  // A search that printed file names alone (`grep -l`, Claude Code's Grep by default) is a list of paths.
  return kind === "search" && isPathList(input.text) ? "directory_list" : kind;
}

function kindByCall(input: InferKindInput): ResultKind {
  const command = commandOf(input.args);
  const byName = toolNameKind(input.toolName, command !== undefined);
  if (byName === undefined) return contentKind(input.text);
  if ("shell" in byName) return command !== undefined ? shellKind(command) : "command";
  if ("editor" in byName) return editorKind(input);
  return byName.kind === "file_read" && isDirectoryView(input) ? "directory_list" : byName.kind;
}

/** The shell command line carried by the arguments, if any (a string, or an argv array such as ["bash", "-lc", "ls"]). */
export function commandOf(args: Readonly<Record<string, unknown>>): string | undefined {
  for (const key of COMMAND_KEYS) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") return value;
    if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === "string")) return commandFromArgv(value);
  }
  return undefined;
}

function commandFromArgv(argv: readonly string[]): string {
  const [program = "", flag = "", script] = argv;
  if (SHELLS.has(program.slice(program.lastIndexOf("/") + 1)) && /^-\w*c$/.test(flag) && script !== undefined) return script;
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(" ");
}

function editorKind(input: InferKindInput): ResultKind {
  const subcommand = typeof input.args["command"] === "string" ? input.args["command"] : (normalizeToolName(input.toolName).split("_").pop() ?? "");
  if (subcommand !== "view") return "edit";
  return isDirectoryView(input) ? "directory_list" : "file_read";
}

function isDirectoryView(input: InferKindInput): boolean {
  const path = input.args["path"] ?? input.args["file_path"];
  if (typeof path === "string" && path.endsWith("/")) return true;
  const newline = input.text.indexOf("\n");
  return DIRECTORY_VIEW.test(input.text.slice(0, newline === -1 ? Math.min(input.text.length, 500) : Math.min(newline, 500)));
}
