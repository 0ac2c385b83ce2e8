import { filePathKeyOf } from "./file-path-of.js";

/** Writes a call of the agent's own read tool for file lines `from`–`to` (1-based, inclusive). */
export type ReadToolCall = (from: number, to: number) => string;

const LINE_PAIRS = [
  ["start_line", "end_line"],
  ["startLine", "endLine"],
  ["line_start", "line_end"],
] as const;

/**
 * How to read file lines again with the agent's own read tool, in that tool's
 * argument shape, when the call shows one: a path argument plus a range
 * argument (`view_range`, `start_line`/`end_line`, `offset`/`limit`), or
 * Claude Code's `Read {file_path}`. `firstPrinted` is the line number the tool
 * printed first, when it numbers lines: it tells whether `offset` counts from
 * 0 or 1 (1 unless shown otherwise, as in Claude Code). Undefined when the call
 * is not such a tool (a shell command, a tool with no way to ask for a range).
 */
export function readToolCall(toolName: string, args: Readonly<Record<string, unknown>>, firstPrinted: number | undefined): ReadToolCall | undefined {
  const key = filePathKeyOf(args);
  if (key === undefined || toolName === "") return undefined;
  const path = args[key];
  const call = (fields: Record<string, unknown>): string => `${toolName} ${JSON.stringify(fields)}`;
  if ("view_range" in args || args["command"] === "view") {
    const command = typeof args["command"] === "string" ? { command: args["command"] } : {};
    return (from, to) => call({ ...command, [key]: path, view_range: [from, to] });
  }
  const pair = LINE_PAIRS.find(([start, end]) => start in args || end in args);
  if (pair) return (from, to) => call({ [key]: path, [pair[0]]: from, [pair[1]]: to });
  if ("offset" in args || "limit" in args || toolName === "Read") {
    const offset = args["offset"];
    const zeroBased = offset === 0 || (typeof offset === "number" && firstPrinted === offset + 1);
    return (from, to) => call({ [key]: path, offset: zeroBased ? from - 1 : from, limit: to - from + 1 });
  }
  return undefined;
}

/**
 * The file line a tool read starts at, from its range arguments (1 when it
 * has none); undefined when an `offset` does not say (see {@link readToolCall}).
 */
export function firstLineFromArgs(args: Readonly<Record<string, unknown>>): number | undefined {
  const range = args["view_range"];
  if (Array.isArray(range)) return positive(range[0]);
  const pair = LINE_PAIRS.find(([start]) => start in args);
  if (pair) return positive(args[pair[0]]);
  if ("offset" in args) {
    const offset = args["offset"];
    return typeof offset === "number" && Number.isInteger(offset) ? Math.max(1, offset) : undefined;
  }
  return 1;
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : undefined;
}
