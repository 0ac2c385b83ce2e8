import { isShellFileRead } from "./is-shell-file-read.js";

/** Argument names agents' file tools give the file in, most specific first. */
export const FILE_PATH_KEYS = ["file_path", "filePath", "path", "filename", "file", "target_file", "absolute_path", "notebook_path"] as const;

// Search tools (Grep, Glob) name a directory to search in, not a file.
const SEARCH_KEYS = ["pattern", "query", "regex", "glob"];

/**
 * The file a tool call reads or writes, as the call names it: a file-path
 * argument of the agent's own file tool (Claude Code `Read {file_path}`,
 * OpenHands `str_replace_editor {path}`, generic `{path}`), or the file of a
 * shell read (`cat F`, `sed -n 'A,Bp' F`, `head -n N F` …, see
 * {@link isShellFileRead}) in a `command`/`cmd` argument. Undefined when the
 * call names no single file, and for search tools, whose `path` is where to
 * search. The path is returned as written (not resolved against a working
 * directory). Pure.
 */
export function filePathOf(_toolName: string, args: Readonly<Record<string, unknown>>): string | undefined {
  const key = filePathKeyOf(args);
  if (key !== undefined) return args[key] as string;
  for (const name of ["command", "cmd"]) {
    const command = args[name];
    if (typeof command === "string" && command !== "view") return isShellFileRead(command)?.path;
  }
  return undefined;
}

/** The argument that holds the file path of a file tool's call, when there is one. */
export function filePathKeyOf(args: Readonly<Record<string, unknown>>): (typeof FILE_PATH_KEYS)[number] | undefined {
  if (SEARCH_KEYS.some((key) => key in args)) return undefined;
  return FILE_PATH_KEYS.find((key) => typeof args[key] === "string" && args[key] !== "");
}
