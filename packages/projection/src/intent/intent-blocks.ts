import type { LineBlock } from "../lines/select-lines.js";
import type { TokenCounter } from "../token-counter.js";
import { docstringSpan } from "./docstring.js";
import type { IntentMatches } from "./match-intent.js";

/** Options of {@link intentBlocks}. */
export interface IntentBlockOptions {
  lines: readonly string[];
  matches: IntentMatches;
  counter: TokenCounter;
  /** Tokens one gap notice costs. */
  gapTokens: number;
  /** Tokens the windows may cost, the gap notices they add included. */
  maxTokens: number;
  /** Lines of context kept above and below a matched line. */
  before: number;
  after: number;
  /** Priority of the blocks (see LineBlock). */
  priority: number;
  /** Lines the view keeps anyway (not modified); none when absent. */
  expected?: Uint8Array;
}

// Past this many matched lines, the rest are left to the notice and its pattern continuation.
const MAX_HITS_OFFERED = 400;
// Past a run of matched lines none of whose windows fit, the rest nearly never would.
const MAX_MISSES = 8;

/**
 * Blocks for the lines an intent points at: for each matched line, best
 * first, a window of whole lines around it (`before` above, `after` below)
 * while the windows fit `maxTokens`, each window charged its new lines and
 * the change it makes to the number of gaps (a definition's window reaches to
 * the end of its body; a window next to kept lines adds
 * no notice). A window too large for what is left keeps its matched line and
 * as many lines below it as fit — for a definition whose body opens with a
 * long docstring (see docstringSpan), its signature and then the code after
 * the docstring. Each chosen line is a one-line `all` block at `priority`.
 * Returns the blocks and the lines chosen, in line order.
 */
export function intentBlocks(options: IntentBlockOptions): { blocks: LineBlock[]; chosen: number[] } {
  const { lines, matches, counter, gapTokens } = options;
  if (matches.ranked.length === 0 || options.maxTokens <= gapTokens) return { blocks: [], chosen: [] };
  const kept = options.expected?.slice() ?? new Uint8Array(lines.length);
  const chosen: number[] = [];
  let room = options.maxTokens;
  let misses = 0;
  for (const hit of matches.ranked.slice(0, MAX_HITS_OFFERED)) {
    if (room <= 0 || misses >= MAX_MISSES) break;
    // A definition the intent names is offered with its body (up to MAX_BODY_LINES), else the usual context.
    const body = matches.bodies.get(hit) ?? 0;
    const start = Math.max(0, hit - options.before);
    const end = Math.min(lines.length, Math.max(hit + options.after + 1, body));
    // When the body does not fit whole, a long docstring opening it is passed over: the signature, then the code after it.
    const docstring = body > 0 ? docstringSpan(lines, hit, body) : undefined;
    const fitted = fitWindow(hit, start, end);
    const whole = fitted !== undefined && fitted.start === start && fitted.end === end;
    const window = docstring === undefined || whole ? fitted : fitWindow(hit, start, docstring.start);
    if (window === undefined) {
      misses++;
      continue;
    }
    misses = 0;
    take(window);
    if (whole || docstring === undefined || docstring.end >= end || room <= 0) continue;
    const code = fitWindow(docstring.end, docstring.end, end);
    if (code !== undefined) take(code);
  }
  chosen.sort((a, b) => a - b);
  return { blocks: chosen.map((index): LineBlock => ({ start: index, end: index + 1, priority: options.priority, take: "all" })), chosen };

  // Keeps a fitted window's lines and charges its cost.
  function take(window: { start: number; end: number; cost: number }): void {
    room -= window.cost;
    for (let index = window.start; index < window.end; index++) {
      if (kept[index] === 1) continue;
      kept[index] = 1;
      chosen.push(index);
    }
  }

  // The window [start, end) if it fits what is left, else the hit and as many lines below it as fit; undefined when not even the hit does.
  function fitWindow(hit: number, start: number, end: number): { start: number; end: number; cost: number } | undefined {
    const costs: number[] = [];
    let total = 0;
    for (let index = start; index < end; index++) {
      const counted = kept[index] === 1 ? 0 : counter.within(lines[index] ?? "", room);
      // A line longer than all the room ends the window there (the hit itself, none at all).
      if (counted === false) {
        if (index <= hit) return undefined;
        end = index;
        break;
      }
      costs.push(counted);
      total += counted;
    }
    const whole = total + gapDelta(start, end) * gapTokens;
    if (whole <= room) return { start, end, cost: whole };
    let tokens = 0;
    let best: { start: number; end: number; cost: number } | undefined;
    for (let index = hit; index < end; index++) {
      tokens += costs[index - start] ?? 0;
      const cost = tokens + gapDelta(hit, index + 1) * gapTokens;
      if (cost > room) break;
      best = { start: hit, end: index + 1, cost };
    }
    return best;
  }

  // The change in the number of gap notices when [start, end) is kept: the runs of omitted lines meeting
  // [start - 1, end] before, against those left after (at most one above and one below the window).
  function gapDelta(start: number, end: number): number {
    const from = Math.max(0, start - 1);
    const to = Math.min(lines.length - 1, end);
    let before = 0;
    for (let index = from; index <= to; index++) {
      if (kept[index] !== 1 && (index === from || kept[index - 1] === 1)) before++;
    }
    const after = (start > 0 && kept[start - 1] !== 1 ? 1 : 0) + (end < lines.length && kept[end] !== 1 ? 1 : 0);
    return after - before;
  }
}
