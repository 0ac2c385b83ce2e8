import { isShellCall, type CorpusRow } from "./corpus-row.js";

/** A corpus call as Loupe policies send it: tool name and args_json. */
export interface ToolCall {
  readonly toolName: string;
  readonly argsJson: string;
}

/**
 * The command line of a shell call's args: the string itself, or its `command` field (Codex's `cmd`; an argument
 * list such as `["bash", "-lc", "ls"]` as the script it runs, or its words joined); else "".
 */
export function commandLineOf(args: unknown): string {
  if (typeof args === "string") return args;
  if (typeof args !== "object" || args === null) return "";
  const { command, cmd } = args as { command?: unknown; cmd?: unknown };
  if (typeof command === "string") return command;
  if (typeof cmd === "string") return cmd;
  if (!Array.isArray(command) || !command.every((word) => typeof word === "string")) return "";
  const words = command;
  return words.length === 3 && /(?:^|\/)(?:ba|z)?sh$/.test(words[0] ?? "") && /^-l?c$/.test(words[1] ?? "") ? (words[2] ?? "") : words.join(" ");
}

/**
 * The call as Loupe policies send it: a shell-like call (see `isShellCall`)
 * as `bash` with its command line as `command` (so Loupe infers the program's
 * kind: cat, grep, pytest …); any other call with its own name and args.
 */
export function toolCallOf(row: Pick<CorpusRow, "tool" | "args">): ToolCall {
  const shell = isShellCall(row);
  return { toolName: shell ? "bash" : row.tool, argsJson: JSON.stringify(shell ? { command: commandLineOf(row.args) } : (row.args ?? {})) };
}
