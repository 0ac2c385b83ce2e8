import { createLineMatcher } from "./line-matcher.js";
import { signalLines } from "./signal-lines.js";
import { markTraceShapes } from "./trace-shapes.js";
import { indentOf, visibleText } from "./visible-text.js";
import {
  BANNER,
  DIAGNOSTIC_DETAIL,
  ESLINT_ROW,
  LINE_TABLE,
  PYTEST_SOURCE,
  PYTHON_FRAME,
  REPEATED_FRAMES,
  TAP_YAML_END,
  TAP_YAML_START,
  TRACEBACK_HEADER,
  BLANK,
  isLibraryFrame,
  type LineTag,
} from "./line-patterns.js";

// The hot loop runs one combined match per line (see createLineMatcher).
const matchLine = createLineMatcher(LINE_TABLE);

/**
 * What one line of command output is evidence of:
 * - `summary`: a verdict (N passed, M failed; Ran N tests; Found N errors; warning counts);
 * - `summary_block`: inside pytest's "short test summary info" block;
 * - `failure`: names a failing test (FAILED x::y, not ok, --- FAIL:, ✗, FAIL: test (…));
 * - `diagnostic`: a compiler or linter error naming file:line (each starts its own error block);
 * - `error` / `warning`: an error or exception line, an `E ` line / a warning and what belongs to it;
 * - `trace_header`: "Traceback (most recent call last):";
 * - `frame` / `library_frame`: a stack frame (with its source lines) in the repository / in a library or the runtime;
 * - `detail`: what belongs to the evidence above it (source excerpt, caret, `-->` location, TAP YAML);
 * - `ordinary`: everything else.
 */
export type LineKind =
  "ordinary" | "summary" | "summary_block" | "failure" | "diagnostic" | "error" | "warning" | "trace_header" | "frame" | "library_frame" | "detail";

// How many lines the state machine follows one structure before it gives up.
const MAX_ATTACHED_LINES = 40;
const MAX_SECTION_LINES = 400;

/** Options for {@link classifyLines}. */
export interface ClassifyOptions {
  /**
   * Classify every line with the patterns instead of only the lines a fast
   * scan marks as possible evidence. Same answer, slower: for tests.
   * @internal
   */
  everyLine?: boolean;
  /** `lines` joined, when the caller has it (saves joining them again). */
  text?: string;
}

interface State {
  /** In a Python traceback: the kind of the current frame (its source lines share it). */
  traceback: "frame" | "library_frame" | undefined;
  /** Inside pytest's short summary block / a pytest failure section / a TAP YAML block: lines left. */
  summaryBlock: number;
  section: number;
  yaml: number;
  /** Lines indented deeper than `indent` below an evidence line belong to it. */
  attach: { indent: number; left: number; kind: "detail" | "warning"; blanks: number } | undefined;
}

/**
 * Classifies every line of a command's output (see {@link LineKind}). A small
 * state machine follows tracebacks, pytest sections and summary blocks, TAP
 * YAML blocks and the indented lines under a diagnostic. Linear in the input:
 * one native scan finds the lines that may be evidence, and only those (and
 * the structures they open) are matched against the patterns. Lines longer
 * than 2,000 characters are classified by their start.
 */
export function classifyLines(lines: readonly string[], options: ClassifyOptions = {}): LineKind[] {
  const kinds: LineKind[] = new Array<LineKind>(lines.length);
  const state: State = { traceback: undefined, summaryBlock: 0, section: 0, yaml: 0, attach: undefined };
  const candidates = options.everyLine === true ? undefined : signalLines(lines, options.text ?? lines.join(""));
  for (let index = 0; index < lines.length; index++) {
    if (candidates !== undefined && candidates[index] === 0 && !following(state)) {
      kinds[index] = "ordinary";
      continue;
    }
    const text = visibleText(lines[index] ?? "");
    const kind = classifyOne(text, state);
    kinds[index] = kind;
    // An eslint row belongs to the file path printed above it, which names the location.
    if (
      (kind === "error" || kind === "warning") &&
      ESLINT_ROW.test(text) &&
      index > 0 &&
      kinds[index - 1] === "ordinary" &&
      /^\S/.test(visibleText(lines[index - 1] ?? ""))
    ) {
      kinds[index - 1] = kind === "error" ? "diagnostic" : "warning";
    }
    updateAttach(text, kind, state);
  }
  markTraceShapes(lines, kinds);
  return kinds;
}

// True while a structure is being followed line by line.
function following(state: State): boolean {
  return (
    state.summaryBlock > 0 || state.yaml > 0 || state.section > 0 || state.traceback !== undefined || (state.attach !== undefined && state.attach.left > 0)
  );
}

function classifyOne(text: string, state: State): LineKind {
  if (state.summaryBlock > 0) {
    state.summaryBlock--;
    if (!BANNER.test(text)) return "summary_block";
    state.summaryBlock = 0;
  }
  if (state.yaml > 0) {
    state.yaml = TAP_YAML_END.test(text) ? 0 : state.yaml - 1;
    return "detail";
  }
  if (state.traceback !== undefined) {
    const kind = tracebackLine(text, state);
    if (kind !== undefined) return kind;
  }
  if (state.section > 0 && BANNER.test(text)) state.section = 0;
  const kind = kindOfTag(matchLine(text), text, state);
  if (kind !== undefined) return kind;
  if (state.section > 0) {
    state.section--;
    return PYTEST_SOURCE.test(text) ? "frame" : BLANK.test(text) ? "ordinary" : "detail";
  }
  return attachedKind(text, state);
}

function kindOfTag(tag: LineTag | undefined, text: string, state: State): LineKind | undefined {
  switch (tag) {
    case undefined:
      return undefined;
    case "short_summary":
      state.summaryBlock = MAX_SECTION_LINES;
      state.section = 0;
      return "summary_block";
    case "trace_header":
      state.traceback = "frame";
      return "trace_header";
    case "chain":
      return "detail";
    case "section":
      state.section = MAX_SECTION_LINES;
      return "failure";
    case "eslint":
      return /^\s+\d+:\d+\s+error/.test(text) ? "error" : "warning";
    case "frame":
      return isLibraryFrame(text) ? "library_frame" : "frame";
    default:
      return tag;
  }
}

// Inside a Python traceback: frames, their source lines, and the exception line that ends it.
function tracebackLine(text: string, state: State): LineKind | undefined {
  if (PYTHON_FRAME.test(text)) {
    state.traceback = isLibraryFrame(text) ? "library_frame" : "frame";
    return state.traceback;
  }
  if (REPEATED_FRAMES.test(text)) return "detail";
  if (BLANK.test(text)) return "ordinary";
  // A frame's source lines and carets belong to it: a repository frame is kept with its code.
  if (/^\s/.test(text)) return state.traceback;
  state.traceback = undefined;
  if (TRACEBACK_HEADER.test(text)) return undefined;
  // The line that ends a traceback is the exception raised, a warning class too (raised as an error).
  return "error";
}

function attachedKind(text: string, state: State): LineKind {
  const attach = state.attach;
  if (attach === undefined || attach.left <= 0) return "ordinary";
  if (BLANK.test(text)) return "ordinary";
  if (indentOf(text) > attach.indent || DIAGNOSTIC_DETAIL.test(text) || REPEATED_FRAMES.test(text)) {
    attach.left--;
    return attach.kind;
  }
  return "ordinary";
}

function updateAttach(text: string, kind: LineKind, state: State): void {
  if (state.yaml === 0 && kind === "detail" && TAP_YAML_START.test(text)) state.yaml = MAX_SECTION_LINES;
  if (kind === "error" || kind === "diagnostic" || kind === "failure" || kind === "warning") {
    state.attach = { indent: indentOf(text), left: MAX_ATTACHED_LINES, kind: kind === "warning" ? "warning" : "detail", blanks: 0 };
    return;
  }
  if (state.attach === undefined) return;
  if (BLANK.test(text)) {
    // One blank line inside a diagnostic's message is common; two end it.
    state.attach.blanks++;
    if (state.attach.blanks > 1) state.attach = undefined;
    return;
  }
  state.attach.blanks = 0;
  if (kind === "ordinary" || kind === "summary" || kind === "summary_block") state.attach = undefined;
}
