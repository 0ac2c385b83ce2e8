// The conversation package depends on @loupe/projection (package.json, tsconfig references); the pure-core
// import pattern in eslint.config.mjs was written for the projection package itself.
import { classifyLines, splitLines } from "@loupe/projection";
import type { TurnToolResult } from "../turn.js";
import { LIMITS } from "./extractive-state.js";
import { shellCommands } from "./shell-words.js";
import { clipText, oneLine } from "./text-bounds.js";

const SHORT_SUMMARY_VERDICT = /^(FAILED|ERROR)\b/;
const FAILED_COUNT = /\b[1-9]\d* (failed|failures?|errors?)\b|# fail [1-9]|\bFAILED \(/i;
// `ValueError: x`, `django.core.exceptions.ImproperlyConfigured: x`, `ls: cannot access x`.
const EXCEPTION_LINE = /^[A-Za-z_][\w.]*: \S/;
const NAMED_EXCEPTION = /\b[A-Z]\w*(Error|Exception): \S|^([a-z_]\w*\.)+[A-Z]\w*: \S/;
const MAX_LINE_CHARS = 2000;
// Characters of a long output's start and of its end that are judged.
const JUDGED_CHARS = 64_000;
const LABEL_ONLY = /^[\w !.-]{1,30}:$/;
// A tool (not a shell) that reports failure in its text: OpenHands' editor answers "ERROR:\nNo replacement was performed…".
const FAILURE_OPENING = /^\s*(error|failed|failure)\b/i;
const BANNER = /^[\s_=\-*#]{3,}.*[_=\-*#]{3,}\s*$/;
const ERROR_WORDS =
  /\b(error|errors|failed|failure|fatal|exception|traceback|cannot|can't|could not|unable to|not found|no such file|no module named|permission denied|invalid|panic|segmentation fault|aborted|timed out|killed)\b/i;
const SEARCHES = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack"]);
// Shell programs that only show files or search: an error word in their output is content, not a failure.
const READERS = new Set([
  "cat",
  "head",
  "tail",
  "sed",
  "nl",
  "less",
  "more",
  "bat",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "ack",
  "find",
  "ls",
  "tree",
  "wc",
  "echo",
  "printf",
  "diff",
  "open",
  "git",
]);

/** The text of a tool result's text and JSON parts, joined with line ends. */
export function resultText(result: Pick<TurnToolResult, "parts">): string {
  return result.parts
    .map((part) => (part.type === "text" ? part.text : part.type === "json" ? part.json : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/**
 * The line of a command's output that best says what went wrong, trimmed and
 * cut to about 200 characters. By rank, the first of: a pytest short-summary
 * verdict (`FAILED a::b - …`); an exception line (`ValueError: …`,
 * `pkg.Error: …`) among the lines `classifyLines` of @loupe/projection marks
 * as evidence; any line naming an exception (`Error occurred: TypeError: …`);
 * any other diagnostic, error or failing-test line (banners skipped); a
 * summary line that counts failures. Undefined when the output has no such
 * evidence, unless `loose`: then a line with an error word, else the last
 * non-empty line, stands in. "ERROR:" alone is joined to the line after it.
 * Only the first and last 64,000 characters of a longer output are read.
 */
export function decisiveErrorLine(output: string, loose: boolean): string | undefined {
  const text = headAndTail(output);
  const raw = splitLines(text);
  const kinds = classifyLines(raw, { text });
  // A line is judged by its start: some outputs have lines of megabytes.
  const lines = raw.map((line) => oneLine(line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line));
  const evidence = (index: number): boolean =>
    (kinds[index] === "diagnostic" || kinds[index] === "error" || kinds[index] === "failure") && !BANNER.test(lines[index] ?? "");
  const ranks: ((line: string, index: number) => boolean)[] = [
    (line, index) => kinds[index] === "summary_block" && SHORT_SUMMARY_VERDICT.test(line),
    (line, index) => evidence(index) && EXCEPTION_LINE.test(line),
    (line) => NAMED_EXCEPTION.test(line),
    (_line, index) => evidence(index),
    (line, index) => (kinds[index] === "summary" || kinds[index] === "summary_block") && FAILED_COUNT.test(line),
    (line) => ERROR_WORDS.test(line),
  ];
  const hasEvidence = lines.some((_line, index) => evidence(index) || kinds[index] === "summary_block" || kinds[index] === "summary");
  if (!hasEvidence && !loose) return undefined;
  for (const [rank, test] of ranks.entries()) {
    // Without a failed exit, a mere error word is no evidence.
    if (rank === ranks.length - 1 && !loose) break;
    const index = lines.findIndex((line, at) => line !== "" && test(line, at));
    if (index !== -1) return clipText(withMessage(lines, index), LIMITS.errorLineChars);
  }
  if (!loose) return undefined;
  for (let index = lines.length - 1; index >= 0; index--) if (lines[index] !== "") return clipText(lines[index] ?? "", LIMITS.errorLineChars);
  return undefined;
}

// The evidence of a long output is at its start (what failed first) or its end (tracebacks, verdicts).
function headAndTail(output: string): string {
  if (output.length <= 2 * JUDGED_CHARS) return output;
  const headEnd = output.lastIndexOf("\n", JUDGED_CHARS) + 1 || JUDGED_CHARS;
  const tailStart = output.indexOf("\n", output.length - JUDGED_CHARS) + 1 || output.length - JUDGED_CHARS;
  return output.slice(0, headEnd) + output.slice(tailStart);
}

// "ERROR:" alone says nothing: the line after it is the message.
function withMessage(lines: readonly string[], index: number): string {
  const line = lines[index] ?? "";
  if (!LABEL_ONLY.test(line)) return line;
  const next = lines.slice(index + 1, index + 4).find((candidate) => candidate !== "");
  return next === undefined ? line : `${line} ${next}`;
}

/**
 * How a call's result is judged: `exit` by its error flag and exit code only;
 * `output` also by error evidence in the output of a run that exits 0 (a
 * traceback's exception line, a diagnostic, a failing test); `search` like
 * `exit`, except that exit 1 with no output is "no match", not a failure.
 */
export type CallJudgement = "exit" | "output" | "search";

/**
 * The error line of a failed tool result, or undefined when it succeeded. A
 * result fails when it has `isError` or a non-zero exit code, or (judged by
 * `output`, see {@link CallJudgement}) when its output has error evidence. A
 * result without an exit code whose text opens with "Error"/"Failed" (an
 * editor tool's refusal: "ERROR:\nNo replacement was performed…") fails too.
 */
export function failureOf(result: Pick<TurnToolResult, "parts" | "isError" | "exitCode">, judgement: CallJudgement): string | undefined {
  const text = resultText(result);
  const failed = result.isError || (result.exitCode !== undefined && result.exitCode !== 0);
  if (failed) {
    if (judgement === "search" && result.exitCode === 1 && text.trim() === "") return undefined;
    const line = decisiveErrorLine(text, true);
    if (line !== undefined) return line;
    return result.exitCode !== undefined && result.exitCode !== 0 ? `exit ${String(result.exitCode)} (no output)` : "failed (no output)";
  }
  if (judgement === "output") return decisiveErrorLine(text, false);
  return result.exitCode === undefined && FAILURE_OPENING.test(text) ? decisiveErrorLine(text, true) : undefined;
}

/**
 * How to judge the result of a call that runs `command` ("" for a call that
 * is not a shell call): `search` when its last command is a grep; `exit` when
 * it only shows files or searches (cat, grep, sed -n, git …), whose output is
 * content, not a verdict; `output` otherwise.
 */
export function judgementOf(command: string): CallJudgement {
  if (command.trim() === "") return "exit";
  const commands = shellCommands(command).map((simple) => ({ program: (simple.words[0] ?? "").replace(/^.*\//, ""), words: simple.words }));
  const last = commands[commands.length - 1];
  if (last !== undefined && (SEARCHES.has(last.program) || (last.program === "git" && last.words[1] === "grep"))) return "search";
  const reads = commands.every(({ program, words }) => {
    if (program === "sed") return !words.some((word) => /^-[a-zA-Z]*i/.test(word));
    return program === "cd" || program === "" || READERS.has(program);
  });
  return reads ? "exit" : "output";
}
