import { blobKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { SearchRequest } from "@loupe/proto";
import { countNewlines, type LineIndex } from "./line-index.js";
import { MAX_MATCHES_PER_JOB, type CompiledPattern, type PatternMatcher } from "./pattern-worker.js";
import { lineStart, readBlob, type Blob } from "./blob-reader.js";

/** Time one Search call may spend matching (ms). */
export const DEFAULT_SEARCH_DEADLINE_MS = 2000;
/** Longest pattern accepted (UTF-16 code units). */
export const MAX_PATTERN_LENGTH = 1000;
/** Matches per answer when the request sets no max_matches, and the most it may set. */
export const DEFAULT_MAX_MATCHES = 100;
export const MAX_MATCHES = MAX_MATCHES_PER_JOB;
/** Most context lines per side. */
export const MAX_CONTEXT_LINES = 50;
// Windows of whole lines read per ranged GET; a longer line grows its window up to MAX_LINE_BYTES and is
// matched on that prefix only, so a single-line 100 MB blob is never held whole.
const WINDOW_BYTES = 1024 * 1024;
const MAX_LINE_BYTES = 8 * 1024 * 1024;
// Lines in answers are cut to this many characters (around the match for a matching line).
const MAX_LINE_CHARS = 2000;
// An answer stops adding matches past this many characters of line text (keeps gRPC messages small).
const MAX_ANSWER_CHARS = 4 * 1024 * 1024;
const NEWLINE = 0x0a;

/** One matching line (1-based) with its context lines, each without its line ending. */
export interface FoundMatch {
  line: number;
  text: string;
  before: string[];
  after: string[];
}

/** What a search found: `nextLine` is where to continue (0 when the search reached the end). */
export interface SearchOutcome {
  matches: FoundMatch[];
  matchCount: number;
  nextLine: number;
}

/** How a search runs. */
export interface SearchOptions {
  matcher: PatternMatcher;
  /** Default {@link DEFAULT_SEARCH_DEADLINE_MS}. */
  deadlineMs?: number;
  signal?: AbortSignal;
  /** The whole content in hand (an inline result's): searched without fetching. */
  content?: Uint8Array | undefined;
}

/**
 * Validates a pattern: a JavaScript regular expression (no flags) of at most 1,000 characters, matched
 * case-sensitively like grep; a leading `(?i)` (as in RE2 and PCRE) makes it case-insensitive.
 * @throws AppError `invalid_argument` (empty, too long, or not a valid regular expression)
 */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern === "") throw new AppError("invalid_argument", "pattern is required");
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new AppError("invalid_argument", `pattern too long [length=${String(pattern.length)}, max=${String(MAX_PATTERN_LENGTH)}]`);
  const insensitive = pattern.startsWith("(?i)");
  const compiled = { source: insensitive ? pattern.slice(4) : pattern, flags: insensitive ? "i" : "" };
  try {
    new RegExp(compiled.source, compiled.flags);
  } catch (error) {
    // V8 says "Invalid regular expression: /<pattern>/: <reason>": keep the reason, on one line.
    const reason = (error instanceof Error ? error.message : String(error)).split(": ").pop() ?? "";
    throw new AppError("invalid_argument", `invalid pattern [error=${reason.replace(/\s+/g, " ").slice(0, 200)}]`);
  }
  return compiled;
}

interface Window {
  bytes: Uint8Array;
  lineCount: number;
  nextByte: number;
}

/** Whole lines from `start`: about WINDOW_BYTES, more for a long line, its first MAX_LINE_BYTES for a longer one. */
async function readWindow(blob: Blob, start: number): Promise<Window> {
  const size = blob.index.sizeBytes;
  for (let length = WINDOW_BYTES; ; length *= 2) {
    const bytes = await readBlob(blob, start, Math.min(size, start + length));
    const end = start + bytes.byteLength;
    const cut = end === size ? bytes.byteLength : bytes.lastIndexOf(NEWLINE) + 1;
    if (cut > 0)
      return { bytes: bytes.subarray(0, cut), lineCount: countNewlines(bytes.subarray(0, cut)) + (bytes[cut - 1] === NEWLINE ? 0 : 1), nextByte: start + cut };
    if (length >= MAX_LINE_BYTES) {
      let next = end;
      for (let newline = -1; newline === -1 && next < size;) {
        const chunk = await readBlob(blob, next, Math.min(size, next + WINDOW_BYTES));
        newline = chunk.indexOf(NEWLINE);
        next = newline === -1 ? next + chunk.byteLength : next + newline + 1;
      }
      return { bytes, lineCount: 1, nextByte: next };
    }
  }
}

/** Lines of a window, decoded on demand. */
function windowLines(bytes: Uint8Array): (line: number) => string {
  const starts = [0];
  for (let index = bytes.indexOf(NEWLINE); index !== -1; index = bytes.indexOf(NEWLINE, index + 1)) starts.push(index + 1);
  const decoder = new TextDecoder();
  return (line) => {
    const text = decoder.decode(bytes.subarray(starts[line] ?? 0, Math.max(starts[line] ?? 0, (starts[line + 1] ?? bytes.byteLength + 1) - 1)));
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  };
}

function cut(text: string, around = 0): string {
  if (text.length <= MAX_LINE_CHARS) return text;
  const start = Math.max(0, Math.min(around - MAX_LINE_CHARS / 4, text.length - MAX_LINE_CHARS));
  return `${start > 0 ? "…" : ""}${text.slice(start, start + MAX_LINE_CHARS)}${start + MAX_LINE_CHARS < text.length ? "…" : ""}`;
}

function parseRequest(request: SearchRequest, lineCount: number): { pattern: CompiledPattern; context: number; maxMatches: number; fromLine: number } {
  const pattern = compilePattern(request.pattern);
  if (request.contextLines > MAX_CONTEXT_LINES)
    throw new AppError("invalid_argument", `context_lines above the maximum [context_lines=${String(request.contextLines)}, max=${String(MAX_CONTEXT_LINES)}]`);
  const maxMatches = Math.min(request.maxMatches === 0 ? DEFAULT_MAX_MATCHES : request.maxMatches, MAX_MATCHES);
  const fromLine = Math.max(1, request.fromLine);
  if (fromLine > lineCount + 1)
    throw new AppError("invalid_argument", `from_line beyond the last line [from_line=${String(fromLine)}, lines=${String(lineCount)}]`);
  return { pattern, context: request.contextLines, maxMatches, fromLine };
}

interface Scan {
  context: number;
  found: FoundMatch[];
  /** Matches still short of after-context lines. */
  pending: FoundMatch[];
  /** The last `context` lines before the current window. */
  recent: string[];
  answerChars: number;
}

const lengthOf = (texts: string[]): number => texts.reduce((sum, text) => sum + text.length, 0);

function fillPending(scan: Scan, window: Window, lineAt: (line: number) => string): void {
  for (const match of scan.pending.splice(0)) {
    for (let line = 0; line < window.lineCount && match.after.length < scan.context; line++) match.after.push(cut(lineAt(line)));
    if (match.after.length < scan.context) scan.pending.push(match);
  }
}

/** Adds the worker's matches of a window with their context; false when the answer is full. */
function collect(scan: Scan, window: Window, windowLine: number, lineAt: (line: number) => string, matches: Array<{ line: number; index: number }>): boolean {
  const { context } = scan;
  for (const { line, index } of matches) {
    const inWindow = Math.min(line, context);
    const candidates = [...scan.recent, ...Array.from({ length: inWindow }, (_, position) => cut(lineAt(line - inWindow + position)))];
    const before = candidates.slice(Math.max(0, candidates.length - context));
    const after: string[] = [];
    for (let next = line + 1; next < window.lineCount && after.length < context; next++) after.push(cut(lineAt(next)));
    const match: FoundMatch = { line: windowLine + line, text: cut(lineAt(line), index), before, after };
    scan.found.push(match);
    if (after.length < context) scan.pending.push(match);
    scan.answerChars += match.text.length + lengthOf(before) + lengthOf(after);
    if (scan.answerChars > MAX_ANSWER_CHARS) return false;
  }
  return true;
}

function rememberTail(scan: Scan, window: Window, lineAt: (line: number) => string): void {
  if (scan.context === 0) return;
  const tail = Math.min(scan.context, window.lineCount);
  const lines = Array.from({ length: tail }, (_, position) => cut(lineAt(window.lineCount - tail + position)));
  scan.recent = [...scan.recent, ...lines].slice(-scan.context);
}

/**
 * Finds the lines of a blob that match a pattern, from `from_line` on, with up to `context_lines` lines
 * before and after each (context may precede `from_line`). Reads whole lines in ~1 MiB ranged reads and
 * matches them in a worker thread; the search stops at `max_matches` (default 100, at most 1,000), at the
 * end, or at the deadline (default 2 s), whichever comes first. At the deadline it answers the matches found
 * so far with `nextLine` = the line being matched then (not yet searched), so a caller can continue;
 * `matchCount` counts the matches of the searched lines (`from_line` .. `nextLine` - 1), which are all
 * returned. Lines are matched without their "\n" (and a trailing "\r"); lines longer than 8 MiB only on
 * their first 8 MiB; answered lines longer than 2,000 characters are cut (around the match) and marked "…".
 * @throws AppError `invalid_argument` (pattern, context_lines, from_line), `deadline_exceeded` (one line took
 * the whole deadline: the message names it), `cancelled`
 */
export async function searchResult(
  store: ArchiveStore,
  tenant: string,
  sha: string,
  index: LineIndex,
  request: SearchRequest,
  options: SearchOptions,
): Promise<SearchOutcome> {
  const { pattern, context, maxMatches, fromLine } = parseRequest(request, index.lineCount);
  const deadlineMs = options.deadlineMs ?? DEFAULT_SEARCH_DEADLINE_MS;
  const deadlineAt = performance.now() + deadlineMs;
  const blob: Blob = { store, key: blobKey(tenant, sha), index, signal: options.signal, bytes: options.content };
  const scan: Scan = { context, found: [], pending: [], recent: [], answerChars: 0 };
  let windowLine = Math.max(1, fromLine - context);
  let byte = fromLine > index.lineCount ? index.sizeBytes : await lineStart(blob, windowLine);
  // 0 while matching; then the line to continue from (-1: stopped, nothing left to search).
  let nextLine = 0;
  while (byte < index.sizeBytes && (nextLine === 0 || scan.pending.length > 0)) {
    const window = await readWindow(blob, byte);
    const lineAt = windowLines(window.bytes);
    fillPending(scan, window, lineAt);
    if (nextLine === 0) {
      const limit = maxMatches - scan.found.length;
      const outcome = await options.matcher.match({
        bytes: window.bytes,
        lineCount: window.lineCount,
        startAt: Math.max(0, fromLine - windowLine),
        limit,
        pattern,
        deadlineAt,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const roomLeft = collect(scan, window, windowLine, lineAt, outcome.matches);
      const last = scan.found[scan.found.length - 1];
      if (outcome.stoppedBy === "deadline") {
        nextLine = windowLine + outcome.scannedLines > index.lineCount ? -1 : windowLine + outcome.scannedLines;
        if (nextLine !== -1 && nextLine <= fromLine)
          throw new AppError(
            "deadline_exceeded",
            `pattern took longer than the deadline on one line; search from the next line or simplify it [line=${String(fromLine)}, deadline_ms=${String(deadlineMs)}]`,
          );
      } else if (last && (!roomLeft || scan.found.length >= maxMatches)) {
        nextLine = last.line < index.lineCount ? last.line + 1 : -1;
      } else if (performance.now() >= deadlineAt && window.nextByte < index.sizeBytes && windowLine + window.lineCount > fromLine) {
        nextLine = windowLine + window.lineCount;
      }
      rememberTail(scan, window, lineAt);
    }
    byte = window.nextByte;
    windowLine += window.lineCount;
  }
  return { matches: scan.found, matchCount: scan.found.length, nextLine: Math.max(0, nextLine) };
}
