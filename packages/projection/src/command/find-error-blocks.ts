import type { LineKind } from "./classify-lines.js";
import { GO_CALL, RUST_SYMBOL } from "./line-patterns.js";
import { visibleText } from "./visible-text.js";

// The line that opens a stack frame (its source lines or its place follow): each frame is a unit of its own.
// Python "  File …", JavaScript and JVM "  at …" (indented at most 8: Rust's place "             at ./main.rs:1:41"
// stays with the symbol line above it), pytest "x.py:12: in f", a Go call, a Rust symbol.
const FRAME_OPENERS = [/^\s+File "/, /^(?:\t| {1,8})at /, /^[^\s:]+:\d+: in /, GO_CALL, RUST_SYMBOL];
const opensFrame = (text: string): boolean => FRAME_OPENERS.some((pattern) => pattern.test(text));

/**
 * A unit of lines inside an error block (a key line, a stack frame with its
 * source lines, a run of detail) with one rank: 0 for the lines that
 * say what failed (failing test, error and exception lines, diagnostics,
 * traceback header, repository frames), 1 for their detail (source excerpts,
 * carets, messages, blank lines between), 2 for library frames (collapsed
 * first when room is short).
 */
export interface BlockSegment {
  /** 0-based index of the first line. */
  start: number;
  /** 0-based index after the last line. */
  end: number;
  rank: 0 | 1 | 2;
}

/** One piece of contiguous error evidence: a traceback, a failing test's report, a diagnostic with its excerpt. */
export interface ErrorBlock {
  /** 0-based index of the first line. */
  start: number;
  /** 0-based index after the last line. */
  end: number;
  /** The block's lines by rank, in order; together they cover start..end. */
  segments: BlockSegment[];
}

// One ordinary line (a separator, a blank) may sit inside a block; two end it.
const MAX_GAP_LINES = 1;

function rankOf(kind: LineKind): 0 | 1 | 2 {
  if (kind === "library_frame") return 2;
  return kind === "detail" || kind === "ordinary" || kind === "warning" ? 1 : 0;
}

function isEvidence(kind: LineKind): boolean {
  return kind !== "ordinary" && kind !== "summary" && kind !== "summary_block" && kind !== "warning";
}

interface OpenBlock {
  block: ErrorBlock;
  hasTraceback: boolean;
  lastKind: LineKind;
}

/**
 * Groups classified lines into error blocks. A block grows while evidence
 * lines follow each other (one ordinary line between is bridged); a failing
 * test's name, a diagnostic with a location and a new traceback each start a
 * block of their own, except a traceback that belongs to the failing test
 * named just above it or that is chained to the previous one ("During
 * handling of the above exception …"). Detail and library frames never start
 * a block. Within a block, each key line, and each stack frame with its
 * source lines, is a segment of its own. Linear in the number of lines.
 */
export function findErrorBlocks(kinds: readonly LineKind[], lines: readonly string[]): ErrorBlock[] {
  const blocks: ErrorBlock[] = [];
  let open: OpenBlock | undefined;
  for (let index = 0; index < kinds.length; index++) {
    const kind = kinds[index] ?? "ordinary";
    if (!isEvidence(kind)) continue;
    const near = open !== undefined && index - open.block.end <= MAX_GAP_LINES;
    if (open !== undefined && near && !startsBlock(kind, open)) {
      extend(open.block, kinds, lines, index);
      open.lastKind = kind;
      open.hasTraceback ||= kind === "trace_header";
      continue;
    }
    if (kind === "detail" || kind === "library_frame") continue;
    const block: ErrorBlock = { start: index, end: index + 1, segments: [{ start: index, end: index + 1, rank: rankOf(kind) }] };
    blocks.push(block);
    open = { block, hasTraceback: kind === "trace_header", lastKind: kind };
  }
  return blocks;
}

function startsBlock(kind: LineKind, open: OpenBlock): boolean {
  if (kind === "failure" || kind === "diagnostic") return true;
  if (kind !== "trace_header") return false;
  // A traceback under a failing test's name, or chained to the one before, continues that block.
  return open.hasTraceback && open.lastKind !== "detail";
}

// Each key line is a unit of its own, except a frame's source lines, which stay with its location line;
// each library frame is a unit with its source lines.
function opensUnit(kind: LineKind, rank: number, line: string): boolean {
  if (kind === "frame" || kind === "library_frame") return opensFrame(visibleText(line));
  return rank === 0;
}

// Adds the lines from the block's end through `index` (bridged gap lines rank as detail).
function extend(block: ErrorBlock, kinds: readonly LineKind[], lines: readonly string[], index: number): void {
  for (let line = block.end; line <= index; line++) {
    const kind = kinds[line] ?? "ordinary";
    const rank = rankOf(kind);
    const last = block.segments[block.segments.length - 1];
    if (last !== undefined && last.rank === rank && last.end === line && !opensUnit(kind, rank, lines[line] ?? "")) last.end = line + 1;
    else block.segments.push({ start: line, end: line + 1, rank });
  }
  block.end = index + 1;
}
