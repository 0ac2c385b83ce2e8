import type { TextView } from "../head-tail-view.js";
import { buildLineView, type LineViewOptions } from "../lines/build-line-view.js";
import { lineGapNotice } from "../lines/gap-notice.js";
import type { LineBlock } from "../lines/select-lines.js";
import type { Projector } from "../projectors/projector.js";
import { utf8Length } from "../utf8-length.js";
import { GREP_LINE, parseGrepOutput, type GrepOutput } from "./parse-grep-output.js";
import { omittedFilesLine, searchCountsLine } from "./search-notices.js";
import { searchedFileOf } from "./searched-file-of.js";

/** Shares of the budget the two header notices may use: the per-file counts, and the files not shown. */
export const SEARCH_NOTICE_SHARES = { counts: 0.1, omittedFiles: 0.1 } as const;

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
  const { budgetTokens, counter } = context;
  const command = typeof input.args["command"] === "string" ? input.args["command"] : "";
  const grep = parseGrepOutput(lines, command === "" ? "" : (searchedFileOf(command) ?? ""));
  const countsTokens = Math.floor(budgetTokens * SEARCH_NOTICE_SHARES.counts);
  const counts = searchCountsLine(grep, countsTokens, counter);
  const header = counter.within(counts + "\n", countsTokens) === false ? [] : [counts];
  const blocks = searchBlocks(grep, lines.length, budgetTokens);
  const options: LineViewOptions = { budgetTokens, maxViewBytes: context.maxViewBytes, counter, describeGap: lineGapNotice(context.resultId), header };
  const first = buildLineView(lines, blocks, options);
  const missing = filesNotShown(grep, first);
  if (missing.length === 0) return first;
  // Make room for naming the missing files, select again, and name what is missing then.
  const reserve = Math.floor(budgetTokens * SEARCH_NOTICE_SHARES.omittedFiles);
  const reserved = Math.min(reserve, counter.count(omittedFilesLine(grep, missing, reserve, counter) + "\n"));
  const second = buildLineView(lines, blocks, { ...options, budgetTokens: budgetTokens - reserved });
  const stillMissing = filesNotShown(grep, second);
  if (stillMissing.length === 0) return second;
  const notice = omittedFilesLine(grep, stillMissing, reserved, counter) + "\n";
  const at = header.length === 0 ? 0 : second.text.indexOf("\n") + 1;
  const text = second.text.slice(0, at) + notice + second.text.slice(at);
  const fits = counter.within(text, budgetTokens) !== false && utf8Length(text) <= context.maxViewBytes;
  return fits ? { ...second, text } : second;
};

/** Priority 0: each file's heading and first hit; 1: the other hits, round-robin over files; 2: everything from the head. */
function searchBlocks(grep: GrepOutput, total: number, budgetTokens: number): LineBlock[] {
  const blocks: LineBlock[] = [];
  const line = (index: number, priority: number): LineBlock => ({ start: index, end: index + 1, priority, take: "all" });
  const headings = new Map<number, number>();
  grep.roles.forEach((role, index) => {
    const file = grep.fileOf[index] ?? -1;
    if (role === GREP_LINE.heading && !headings.has(file)) headings.set(file, index);
  });
  // Each kept line costs at least a token: more blocks than the budget could never all be kept.
  const limit = Math.max(1, budgetTokens);
  grep.hits.forEach((hits, file) => {
    if (blocks.length >= 2 * limit) return;
    const heading = headings.get(file);
    if (heading !== undefined) blocks.push(line(heading, 0));
    if (hits[0] !== undefined) blocks.push(line(hits[0], 0));
  });
  for (let rank = 1, added = true; added && blocks.length < 2 * limit; rank++) {
    added = false;
    for (const hits of grep.hits) {
      const index = hits[rank];
      if (index === undefined) continue;
      blocks.push(line(index, 1));
      added = true;
    }
  }
  blocks.push({ start: 0, end: total, priority: 2, take: "head" });
  return blocks;
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
