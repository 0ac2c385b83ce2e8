import type { ResultKind } from "../projectors/projector.js";

/** What a tool's name says: a kind, a shell whose command decides, an editor whose sub-command decides, or nothing. */
export type NameKind = { kind: ResultKind } | { shell: true } | { editor: true } | undefined;

const SHELL = { shell: true } as const;
const EDITOR = { editor: true } as const;

/**
 * Known tool names (normalized: snake_case, lowercase) of common agent
 * harnesses: Claude Code, OpenAI Codex, OpenHands, SWE-agent, Cursor, Cline,
 * Gemini CLI, Aider-style tools.
 */
const KNOWN = new Map<string, NonNullable<NameKind>>([
  ...names(
    "file_read",
    "read read_file read_files read_many_files read_text_file view view_file open open_file file_read get_file_contents notebook_read goto scroll_up scroll_down",
  ),
  ...names("directory_list", "glob ls list_dir list_directory list_files directory_tree find_file find_files file_search tree"),
  ...names("search", "grep search grep_search search_files search_dir search_file codebase_search ripgrep rg find_in_files search_code"),
  ...names(
    "edit",
    "edit write str_replace apply_patch multi_edit notebook_edit write_file create_file edit_file replace insert create append set_cursors search_replace replace_in_file write_to_file todo_write update_plan",
  ),
  ...names("command", "submit"),
  ...[
    ..."bash shell execute run_command terminal execute_bash execute_command run_terminal_cmd run_shell_command shell_command local_shell exec_command exec run cmd powershell container_exec execute_ipython_cell".split(
      " ",
    ),
  ].map((name) => [name, SHELL] as const),
  ...["str_replace_editor", "str_replace_based_edit_tool", "text_editor", "editor"].map((name) => [name, EDITOR] as const),
]);

function names(kind: ResultKind, list: string): [string, NonNullable<NameKind>][] {
  return list.split(" ").map((name) => [name, { kind }]);
}

/** "MultiEdit" → "multi_edit", "str_replace_editor view" → "str_replace_editor_view". */
export function normalizeToolName(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * What a tool's name says about its result's kind. MCP tools ("mcp__server__tool",
 * "mcp_…") are "mcp"; then the table of known names; then words in the name:
 * history/conversation/transcript → conversation, editor → editor; a tool not
 * known by name that carries a command line (`hasCommand`) is a shell (SWE-agent
 * runs its commands as tools named after the program); then edit/write/replace
 * → edit, bash/shell/exec → shell, grep/search → search, glob/list_dir/tree →
 * directory_list, read/view/open → file_read. Web tools (web, fetch, url,
 * browser) say nothing: their pages are judged by content.
 */
export function toolNameKind(toolName: string, hasCommand = false): NameKind {
  const normalized = normalizeToolName(toolName);
  if (toolName.includes("__") || /^mcp(_|$)/.test(normalized)) return { kind: "mcp" };
  const known = KNOWN.get(normalized);
  if (known !== undefined) return known;
  const words = new Set(normalized.split("_"));
  const has = (...candidates: string[]): boolean => candidates.some((candidate) => words.has(candidate));
  if (has("history", "conversation", "transcript")) return { kind: "conversation" };
  if (has("editor")) return EDITOR;
  if (hasCommand) return SHELL;
  if (has("web", "fetch", "url", "http", "browser", "browse")) return undefined;
  if (has("edit", "write", "replace", "patch", "insert", "append", "todo", "todos")) return { kind: "edit" };
  if (has("bash", "shell", "terminal", "exec", "execute", "command", "cmd", "powershell", "sh", "zsh")) return SHELL;
  if (has("grep", "search", "rg", "ripgrep")) return { kind: "search" };
  if (has("glob", "ls", "dir", "directory", "directories", "tree") || (has("list") && has("files", "file", "paths"))) return { kind: "directory_list" };
  if (has("read", "view", "open", "cat")) return { kind: "file_read" };
  return undefined;
}
