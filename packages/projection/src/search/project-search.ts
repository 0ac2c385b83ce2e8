import { createCachingCounter } from "../file-read/caching-counter.js";
import { chooseWithin, headTailMask, reachWithin } from "../file-read/choose-within.js";
import type { TextView } from "../head-tail-view.js";
import { intentSelection, type IntentSelection } from "../intent/intent-selection.js";
import { buildLineView, type LineViewOptions } from "../lines/build-line-view.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { LineBlock } from "../lines/select-lines.js";
import { sharesOf, type ProjectionShares } from "../projectors/projection-shares.js";
import type { Projector } from "../projectors/projector.js";
import type { TokenCounter } from "../token-counter.js";
import { utf8Length } from "../utf8-length.js";
import { GREP_LINE, parseGrepOutput, type GrepOutput } from "./parse-grep-output.js";
import { commonDirectory, omittedFilesLine, searchCountsLine } from "./search-notices.js";
import { searchedFileOf } from "./searched-file-of.js";

/** A grep line the intent points at also scores this share of the intent's matches within SEARCH_NEIGHBOUR_RADIUS lines of it. */
export const SEARCH_NEIGHBOUR_WEIGHT = 0.5;
export const SEARCH_NEIGHBOUR_RADIUS = 6;

// Shares (ProjectionShares `search`): of the whole budget, the two header notices (the per-file counts, and the
// files not shown); of the room after the header and one notice, the head, each file's first hit, the other hits
// and the tail, with what is left going to the head. Hit lines are chosen within their shares first (a scattered
// line costs a gap notice, about 50 tokens), and the head and tail take what they leave.

/**
 * Projects grep / rg / Grep output: every file first (its first hit line,
 * and its heading in rg's heading mode), then the other hit lines spread over
 * the files (each file's 2nd hit, then each file's 3rd …), then context lines
 * from the head. Kept lines stay whole and in their original order; a header
 * gives the match count per file, and when some files have no line in the
 * view, a second header line names them with the original lines they span.
 * Pure and deterministic.
 */
export const projectSearch: Projector = (input, context) => {
  const { lines } = input;
  const { budgetTokens } = context;
  const shares = sharesOf(context).search;
  const counter = createCachingCounter(context.counter);
  const command = typeof input.args["command"] === "string" ? input.args["command"] : "";
  const grep = parseGrepOutput(lines, command === "" ? "" : (searchedFileOf(command) ?? ""));
  const countsTokens = Math.floor(budgetTokens * shares.counts);
  const counts = searchCountsLine(grep, countsTokens, counter);
  const header = counter.within(counts + "\n", countsTokens) === false ? [] : [counts];
  const describeGap = lineGapNotice(context.resultId);
  const gapTokens = counter.count(describeGap(1, lines.length, lines.length).description + "\n") + 1;
  const available = budgetTokens - (header.length === 0 ? 0 : counter.count(counts + "\n"));
  const intent = intentSelection(input, context, {
    counter,
    gapTokens,
    maxTokens: Math.floor(Math.max(0, available - gapTokens) * sharesOf(context).intent.search),
    before: 1,
    after: 3,
    priority: 0,
    // Grep hits cluster where the code the agent wants is (a definition and its uses, one test's lines).
    match: { neighbourWeight: SEARCH_NEIGHBOUR_WEIGHT, neighbourRadius: SEARCH_NEIGHBOUR_RADIUS },
  });
  const blocks = searchBlocks(grep, lines, { budgetTokens: available, gapTokens, counter, shares, intent });
  const options: LineViewOptions = {
    budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter,
    describeGap,
    briefGaps: true,
    header,
    ...(intent.selectionNotice ? { selectionNotice: intent.selectionNotice } : {}),
  };
  const first = buildLineView(lines, blocks, options);
  const missing = filesNotShown(grep, first);
  if (missing.length === 0) return first;
  // Make room for naming the missing files, select again, and name what is missing then.
  const reserve = Math.floor(budgetTokens * shares.omittedFiles);
  // Names are below the counts line's common directory; without that line, they are whole.
  const base = header.length === 0 ? "" : commonDirectory(grep.files);
  // Files the counts line already names come last: naming the others first names more files in all.
  const inCounts = (file: number): boolean => [": ", ", "].some((before) => counts.includes(`${before}${(grep.files[file] ?? "").slice(base.length)} `));
  const ordered = (files: readonly number[]): number[] => [...files.filter((file) => !inCounts(file)), ...files.filter(inCounts)];
  const unnamed = (files: readonly number[]): number => files.filter((file) => !inCounts(file)).length;
  const noticeLine = (files: readonly number[], maxTokens: number): string => omittedFilesLine(grep, ordered(files), base, maxTokens, counter, unnamed(files));
  const noticeCost = (files: readonly number[]): number => counter.count(noticeLine(files, reserve) + "\n");
  // A smaller body can leave more files without a line: reserve again for those, a few times at most.
  let reserved = Math.min(reserve, noticeCost(missing));
  let second = buildLineView(lines, blocks, { ...options, budgetTokens: budgetTokens - reserved });
  let stillMissing = filesNotShown(grep, second);
  for (let pass = 0; pass < 3 && stillMissing.length > 0; pass++) {
    const needed = Math.min(reserve, noticeCost(stillMissing));
    if (needed <= reserved) break;
    reserved = needed;
    second = buildLineView(lines, blocks, { ...options, budgetTokens: budgetTokens - reserved });
    stillMissing = filesNotShown(grep, second);
  }
  if (stillMissing.length === 0) return second;
  let notice = noticeLine(stillMissing, reserved) + "\n";
  const nameOf = (file: number): string => `${(grep.files[file] ?? "").slice(base.length)} `;
  const namesAll = (line: string, files: readonly number[]): boolean => files.every((file) => inCounts(file) || line.includes(nameOf(file)));
  if (!namesAll(notice, stillMissing)) {
    // Still short: reserve what naming every file the counts line leaves out costs without spans (any
    // missing set is among them), select once more, and name what is missing then.
    const outside = grep.files.flatMap((name, file) => (name === "" || inCounts(file) ? [] : [file]));
    const briefAll = counter.count(omittedFilesLine(grep, outside, base, reserve, counter, 0, false) + "\n");
    if (Math.min(reserve, briefAll) > reserved) {
      reserved = Math.min(reserve, briefAll);
      second = buildLineView(lines, blocks, { ...options, budgetTokens: budgetTokens - reserved });
      stillMissing = filesNotShown(grep, second);
      if (stillMissing.length === 0) return second;
      notice = noticeLine(stillMissing, reserved) + "\n";
    }
  }
  const at = header.length === 0 ? 0 : second.text.indexOf("\n") + 1;
  const text = second.text.slice(0, at) + notice + second.text.slice(at);
  const fits = counter.within(text, budgetTokens) !== false && utf8Length(text) <= context.maxViewBytes;
  return fits ? { ...second, text } : second;
};

/**
 * Priority 0: the head (a share); each file's heading and first hit (a share);
 * then the other hits round-robin over files (a share); priority 1: a short
 * tail; priority 2: everything else from the head.
 */
function searchBlocks(
  grep: GrepOutput,
  lines: readonly string[],
  options: { budgetTokens: number; gapTokens: number; counter: TokenCounter; shares: ProjectionShares["search"]; intent: IntentSelection },
): LineBlock[] {
  const { counter, gapTokens, shares, intent } = options;
  const total = lines.length;
  // The intent's lines come first; the rest of the room is shared as without them.
  const room = Math.max(0, options.budgetTokens - gapTokens - intent.tokens);
  const headTokens = Math.floor(room * shares.head);
  const tailTokens = Math.floor(room * shares.tail);
  const expected = headTailMask(total, reachWithin(lines, 0, 1, headTokens, counter), reachWithin(lines, total - 1, -1, tailTokens, counter) + 1);
  for (const index of intent.chosen) expected[index] = 1;
  const choose = (candidates: Iterable<number>, share: number): number[] => {
    const chosen = chooseWithin({ lines, candidates, expected, maxTokens: Math.floor(room * share), gapTokens, counter });
    for (const index of chosen) expected[index] = 1;
    return chosen;
  };
  const hits = [...choose(firstHits(grep), shares.firstHits), ...choose(laterHits(grep), shares.laterHits)];
  return [
    ...intent.blocks,
    { start: 0, end: total - 1, priority: 0, take: "head", maxTokens: headTokens },
    ...hits.map((index): LineBlock => ({ start: index, end: index + 1, priority: 0, take: "all" })),
    { start: 1, end: total, priority: 1, take: "tail", maxTokens: tailTokens },
    { start: 0, end: total, priority: 2, take: "head", skip: true },
    // What the head leaves (less than its next line) may still hold a short line above the tail.
    { start: 1, end: total, priority: 3, take: "tail", skip: true },
  ];
}

/** Each file's heading (rg's heading mode) and first hit, in file order. */
function firstHits(grep: GrepOutput): number[] {
  const headings = new Map<number, number>();
  grep.roles.forEach((role, index) => {
    const file = grep.fileOf[index] ?? -1;
    if (role === GREP_LINE.heading && !headings.has(file)) headings.set(file, index);
  });
  return grep.hits.flatMap((hits, file) => [headings.get(file), hits[0]].filter((index) => index !== undefined));
}

/** Each file's 2nd hit, then each file's 3rd hit … */
function* laterHits(grep: GrepOutput): Generator<number> {
  for (let rank = 1, more = true; more; rank++) {
    more = false;
    for (const hits of grep.hits) {
      const index = hits[rank];
      if (index === undefined) continue;
      more = true;
      yield index;
    }
  }
}

/** Named files none of whose lines the view keeps. */
function filesNotShown(grep: GrepOutput, view: TextView): number[] {
  const omitted = new Uint8Array(grep.roles.length);
  for (const omission of view.omissions) omitted.fill(1, omission.startLine - 1, omission.endLine);
  const shown = new Uint8Array(grep.files.length);
  grep.fileOf.forEach((file, index) => {
    if (file >= 0 && omitted[index] === 0) shown[file] = 1;
  });
  return grep.files.flatMap((name, file) => (shown[file] === 1 || name === "" ? [] : [file]));
}
