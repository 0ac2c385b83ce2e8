import assert from "node:assert/strict";
import { continuationsIn, type Continuation } from "./continuations.js";
import { FAILING_SUMMARY, FAILING_TEST_NAMES, SUITE_TESTS, longOutputLine } from "./suite-fixtures.js";

const count = (text: string | undefined): number => Number((text ?? "").replaceAll(",", ""));

/** A view's `[loupe] lines A–B of N omitted …; recover with {…}` notice. */
export interface OmissionNotice {
  first: number;
  last: number;
  total: number;
  continuation: Continuation;
}

const OMISSION = /^\[loupe\] lines ([\d,]+)–([\d,]+) of ([\d,]+) omitted(?: \([^)]*\))?; recover with (\{.*\})$/;

/** Every omission notice of a view, in order (a line that starts with `[loupe]` but is no such notice is skipped). */
export function omissionNotices(text: string): OmissionNotice[] {
  return text.split("\n").flatMap((line) => {
    const match = OMISSION.exec(line);
    if (match === null) return [];
    const [continuation] = continuationsIn(line);
    assert.ok(continuation, line);
    return [{ first: count(match[1]), last: count(match[2]), total: count(match[3]), continuation }];
  });
}

/**
 * Checks that each line of the long log a view shows (`NNNNN INFO …`, after a runtime's own
 * prefix such as Gemini CLI's `Output: `) is the log's line of that number, whole; returns the
 * numbers shown. A runtime's marker line (Codex cuts inside a line) is left out. With
 * `lastMayBeCut`, the last log line may be a start of its line: where the runtime's own capture
 * of the output stopped (OpenCode's, at ~180 KB, sometimes mid-line).
 */
export function checkLogLines(text: string, options: { lastMayBeCut?: boolean } = {}): number[] {
  const shown: Array<{ n: number; body: string }> = [];
  for (const line of text.split("\n")) {
    const body = line.replace(/^Output: /, "");
    const match = /^(\d{5}) INFO /.exec(body);
    if (match !== null && !body.includes(" tokens truncated…")) shown.push({ n: Number(match[1]), body });
  }
  shown.forEach(({ n, body }, index) => {
    const whole = longOutputLine(n);
    if (options.lastMayBeCut === true && index === shown.length - 1) assert.ok(whole.startsWith(body), `last log line ${String(n)} is a start of its line`);
    else assert.equal(body, whole, `log line ${String(n)} is shown whole and true`);
  });
  return shown.map(({ n }) => n);
}

/** Checks the failing run's evidence: every failing test named with its assertion, and the summary. */
export function checkFailingEvidence(text: string): void {
  assert.ok(text.includes(FAILING_SUMMARY), `the summary ${FAILING_SUMMARY} is kept`);
  for (const [index, name] of FAILING_TEST_NAMES.entries()) {
    const n = SUITE_TESTS.failing[index] ?? 0;
    assert.match(text, new RegExp(`FAIL: ${name} `), `${name} is named`);
    assert.ok(text.includes(`AssertionError: ${String(2 * n)} != ${String(2 * n + 1)} : doubling ${String(n)} went wrong`), `${name}'s assertion is kept`);
  }
}

/** A read_result answer as the runtime sent it back: its header's range and the lines it served. */
export interface RecoveredRange {
  resultId: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  lines: string[];
}

// What runtimes put around an MCP answer's blocks: Gemini CLI wraps each in <untrusted_context>, Claude Code appends reminders.
const WRAPPER = /^(<\/?untrusted_context>|<system-reminder>|next: call .*)$/;

/** Parses a read_result answer (after whatever the runtime put before it, e.g. Codex's `Output:`). */
export function recoveredRange(answer: string): RecoveredRange {
  const header = /^\[result (r_[\w-]+), lines (\d+)–(\d+) of (\d+)[^\]]*\]$/m.exec(answer);
  assert.ok(header, `a read_result header in: ${answer.slice(0, 300)}`);
  const after = answer.slice(header.index + header[0].length + 1).split("\n");
  let start = 0;
  while (start < after.length && (after[start] === "" || WRAPPER.test(after[start] ?? ""))) start++;
  let end = start;
  while (end < after.length && !WRAPPER.test(after[end] ?? "")) end++;
  const lines = after.slice(start, end);
  while (lines.at(-1) === "") lines.pop();
  return { resultId: header[1] ?? "", startLine: Number(header[2]), endLine: Number(header[3]), totalLines: Number(header[4]), lines };
}

/**
 * Checks a read_result answer against the continuation it was asked with: the same result, from
 * the first omitted line, and every line served exactly the saved result's line of that number
 * (`savedLine(n)`, an oracle independent of Loupe). Returns the range served.
 */
export function checkRecovered(answer: string, continuation: Continuation, savedLine: (n: number) => string): RecoveredRange {
  const range = recoveredRange(answer);
  assert.equal(range.resultId, continuation["result_id"]);
  assert.equal(range.startLine, continuation["start_line"]);
  assert.ok(range.endLine >= range.startLine && range.endLine <= Number(continuation["end_line"]));
  const expected = Array.from({ length: range.endLine - range.startLine + 1 }, (_, index) => savedLine(range.startLine + index));
  assert.deepEqual(range.lines, expected, "the answer holds exactly the omitted lines");
  return range;
}

/** A history cut's notice: `[loupe: lines A–B of N omitted (C characters)…]`. */
export interface CutNotice {
  first: number;
  last: number;
  total: number;
  chars: number;
  /** What follows the counts (`; the runtime had already removed …`), or "". */
  clause: string;
}

/** The one cut notice of a result (fails when there is none or more than one). */
export function cutNoticeOf(text: string): CutNotice {
  const notices = text.split("\n").flatMap((line) => {
    const match = /^\[loupe: lines ([\d,]+)–([\d,]+) of ([\d,]+) omitted \(([\d,]+) characters\)(.*)\]$/.exec(line);
    return match === null ? [] : [{ first: count(match[1]), last: count(match[2]), total: count(match[3]), chars: count(match[4]), clause: match[5] ?? "" }];
  });
  assert.equal(notices.length, 1, `one cut notice in ${String(text.length)} characters: ${text.slice(0, 400)}`);
  return notices[0]!;
}

/**
 * A cut notice's clause split in two: the saved original Loupe names first (asserted present: the proxy
 * saves what it cuts), and what the runtime had removed or saved itself ("" when nothing).
 */
export function clauseParts(clause: string): { saved: string; runtime: string } {
  const match = /^; whole output: recover (\{"result_id":"r_[\w-]+"\})(.*)$/.exec(clause);
  assert.ok(match, `the notice names the saved original: ${clause}`);
  return { saved: match[1] ?? "", runtime: match[2] ?? "" };
}
