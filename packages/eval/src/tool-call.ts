import { isShellCall, type CorpusRow } from "./corpus-row.js";

/** A corpus call as Loupe policies send it: tool name and args_json. */
export interface ToolCall {
  readonly toolName: string;
  readonly argsJson: string;
}

/** The command line of a shell call's args: the string itself, or its `command` field; else "". */
export function commandLineOf(args: unknown): string {
  if (typeof args === "string") return args;
  return typeof args === "object" && args !== null && typeof (args as { command?: unknown }).command === "string" ? (args as { command: string }).command : "";
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
