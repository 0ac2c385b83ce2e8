import type { ProjectorInput } from "../projectors/projector.js";
import { filePathKeyOf } from "./file-path-of.js";
import { isShellFileRead } from "./is-shell-file-read.js";
import { INFERENCE_LINES, looksLikeNumberedFile, printedLineNumber } from "./looks-like-numbered-file.js";
import { firstLineFromArgs, readToolCall, type ReadToolCall } from "./read-tool-call.js";

/** What a file read's output is: which file, and which of its lines each output line shows. */
export interface ReadSource {
  /** The file as the call names it; "" when unknown. */
  path: string;
  /** True when the output is the whole file from its first line (`cat F`), so its line count is the file's. */
  wholeFile: boolean;
  /** True when the tool printed line numbers (`cat -n`, `nl`, an agent's read tool). */
  numbered: boolean;
  /** The file lines shown by output lines `start`–`end` (0-based, inclusive); undefined when not known. */
  fileRange(start: number, end: number): { from: number; to: number } | undefined;
  /** The agent's own read tool, when the call used one. */
  toolCall: ReadToolCall | undefined;
}

// How far from a range's ends to look for a printed line number.
const SCAN_LINES = 64;

/**
 * Works out, from the call and its output, the file a read shows and how its
 * output lines map to the file's lines: exactly from a shell read's range
 * (`sed -n 'A,Bp'` starts at line A), else from the numbers the tool printed,
 * else from the read tool's range arguments. Pure; looks at the first 50
 * lines and at range ends only.
 */
export function readSourceOf(input: Pick<ProjectorInput, "lines" | "toolName" | "args">): ReadSource {
  const { lines, args } = input;
  const command = typeof args["command"] === "string" ? args["command"] : typeof args["cmd"] === "string" ? args["cmd"] : "";
  const key = filePathKeyOf(args);
  const shell = key === undefined && command !== "" ? isShellFileRead(command) : undefined;
  const numbered = looksLikeNumberedFile(lines);
  const firstPrinted = numbered
    ? lines
        .slice(0, INFERENCE_LINES)
        .map(printedLineNumber)
        .find((number) => number !== undefined)
    : undefined;
  const path = shell?.path ?? (key === undefined ? "" : (args[key] as string));
  const toolCall = shell === undefined ? readToolCall(input.toolName, args, firstPrinted) : undefined;
  const linearFirst = shell !== undefined ? shell.firstLine : !numbered && path !== "" ? firstLineFromArgs(args) : undefined;
  const lineAt = (index: number): number | undefined => {
    if (linearFirst !== undefined) return linearFirst + index;
    return numbered ? printedLineNumber(lines[index] ?? "") : undefined;
  };
  const fileRange = (start: number, end: number): { from: number; to: number } | undefined => {
    let from: number | undefined;
    let to: number | undefined;
    for (let index = start; index <= Math.min(end, start + SCAN_LINES) && from === undefined; index++) from = lineAt(index);
    for (let index = end; index >= Math.max(start, end - SCAN_LINES) && to === undefined; index--) to = lineAt(index);
    return from !== undefined && to !== undefined && to >= from ? { from, to } : undefined;
  };
  return { path, wholeFile: shell?.wholeFile ?? false, numbered, fileRange, toolCall };
}
