import type { TokenCounter } from "../token-counter.js";
import { utf8Length } from "../utf8-length.js";

/**
 * A run of lines a projector wants in the view, with how important it is and
 * how it may be cut: `all` is kept whole or not at all, `head` keeps as many
 * lines from its start as fit, `tail` as many from its end.
 */
export interface LineBlock {
  /** 0-based index of the first line. */
  start: number;
  /** 0-based index after the last line. */
  end: number;
  /** 0 is the most important; blocks are considered in ascending priority, then in the order given. */
  priority: number;
  take: "all" | "head" | "tail";
  /** Most tokens this block's lines may use (a share of the budget); default no limit beyond the budget. */
  maxTokens?: number;
  /**
   * Blocks of one group stop at the first that does not fit (e.g. recent turns, newest first); a `head` or
   * `tail` block of a group that stops before its end (a line did not fit) stops the group too, so the
   * ranges of one walk split into several blocks stop as one block would.
   */
  group?: string;
  /**
   * A `head` or `tail` block that goes on past a line that does not fit (up
   * to 16 in a row, while room for more than two notices is left), so what
   * is left of the budget goes to the next lines that fit; by default it
   * stops at the first.
   */
  skip?: boolean;
}

/** Everything {@link selectLines} needs. */
export interface SelectionInput {
  /** The original lines, terminators kept (see splitLines). */
  lines: readonly string[];
  blocks: readonly LineBlock[];
  /** Token budget for the whole view, notices included. */
  budgetTokens: number;
  /** Hard cap on the view's UTF-8 bytes. */
  maxViewBytes: number;
  counter: TokenCounter;
  /** Tokens and bytes already spent by the caller (header notices). */
  reservedTokens: number;
  reservedBytes: number;
  /** Tokens and bytes one gap notice costs at most. */
  gapTokens: number;
  gapBytes: number;
  /** What each gap after the first costs at most, when later notices are brief (default: as the first). */
  laterGapTokens?: number;
  laterGapBytes?: number;
  /** The text shown for a kept line, when it differs from the line (it is what the view pays for). */
  display?: (index: number) => string;
}

/** Which lines to keep: `kept[i]` is 1 for a kept line. */
export interface Selection {
  kept: Uint8Array;
  tokens: number;
  bytes: number;
}

// A skipping block stops after this many lines in a row that did not fit: the rest nearly never would …
const MAX_SKIPPED = 16;
// … or once less than two notices and this many tokens are left.
const MIN_SKIP_ROOM = 16;

/**
 * Chooses whole lines to keep within budget: blocks in priority order, each
 * line charged its tokens plus the change it makes to the number of gaps (each
 * gap becomes one notice line). Pure; counts tokens only of lines it tries.
 */
export function selectLines(input: SelectionInput): Selection {
  const { lines, counter } = input;
  const total = lines.length;
  // The first gap is paid for up front; a line that opens or closes another gap pays a later gap's cost.
  const gapTokens = input.laterGapTokens ?? input.gapTokens;
  const gapBytes = input.laterGapBytes ?? input.gapBytes;
  const kept = new Uint8Array(total);
  let gaps = total > 0 ? 1 : 0;
  let tokens = input.reservedTokens + gaps * input.gapTokens;
  let bytes = input.reservedBytes + gaps * input.gapBytes;
  const cache = new Map<number, number>();
  const shown = (index: number): string => (input.display ? input.display(index) : (lines[index] ?? ""));
  const lineTokens = (index: number, room: number): number => {
    const cached = cache.get(index);
    if (cached !== undefined) return cached;
    const counted = counter.within(shown(index), Math.max(0, room));
    if (counted === false) return Number.POSITIVE_INFINITY;
    cache.set(index, counted);
    return counted;
  };
  const gapDelta = (index: number): number => {
    const left = index === 0 || kept[index - 1] === 1;
    const right = index === total - 1 || kept[index + 1] === 1;
    return left && right ? -1 : !left && !right ? 1 : 0;
  };
  // Tries to keep one line within the budget and the block's own limit (`room`); false when it does not fit.
  const keep = (index: number, room = Number.POSITIVE_INFINITY): boolean => {
    if (kept[index] === 1) return true;
    const delta = gapDelta(index);
    const cost = lineTokens(index, Math.min(room, input.budgetTokens - tokens - delta * gapTokens));
    const size = utf8Length(shown(index));
    if (cost > room || tokens + cost + delta * gapTokens > input.budgetTokens) return false;
    if (bytes + size + delta * gapBytes > input.maxViewBytes) return false;
    kept[index] = 1;
    gaps += delta;
    tokens += cost + delta * gapTokens;
    bytes += size + delta * gapBytes;
    return true;
  };
  const ordered = input.blocks.map((block, order) => ({ block, order })).sort((a, b) => a.block.priority - b.block.priority || a.order - b.order);
  const closedGroups = new Set<string>();
  for (const { block } of ordered) {
    const start = Math.max(0, block.start);
    const end = Math.min(total, block.end);
    if (block.group !== undefined && closedGroups.has(block.group)) continue;
    if (block.take === "all") {
      if (!keepAll(start, end) && block.group !== undefined) closedGroups.add(block.group);
      continue;
    }
    let room = block.maxTokens ?? Number.POSITIVE_INFINITY;
    const step = block.take === "head" ? 1 : -1;
    let misses = 0;
    for (let index = block.take === "head" ? start : end - 1; index >= start && index < end; index += step) {
      const before = tokens;
      const wasKept = kept[index] === 1;
      if (!keep(index, room)) {
        // Past a line that does not fit, a later one costs a notice more: worth trying only while a few lines' room is left.
        if (block.skip !== true || ++misses > MAX_SKIPPED || input.budgetTokens - tokens < 2 * gapTokens + MIN_SKIP_ROOM) {
          if (block.group !== undefined) closedGroups.add(block.group);
          break;
        }
        continue;
      }
      misses = 0;
      if (!wasKept) room -= tokens - before;
    }
  }
  return { kept, tokens, bytes };

  function keepAll(start: number, end: number): boolean {
    // All or nothing: try, and undo when a line does not fit.
    const snapshot = { gaps, tokens, bytes, kept: kept.slice(start, end) };
    for (let index = start; index < end; index++) {
      if (keep(index)) continue;
      kept.set(snapshot.kept, start);
      gaps = snapshot.gaps;
      tokens = snapshot.tokens;
      bytes = snapshot.bytes;
      return false;
    }
    return true;
  }
}
