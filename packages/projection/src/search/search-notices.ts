import { formatNumber } from "../format-number.js";
import type { TokenCounter } from "../token-counter.js";
import { boundedLine } from "./bounded-line.js";
import type { GrepOutput } from "./parse-grep-output.js";

/** Most files a search notice names. */
export const MAX_NAMED_FILES = 20;

const plural = (count: number, one: string, many: string): string => `${formatNumber(count)} ${count === 1 ? one : many}`;

/**
 * The header of a search view: "[loupe] 143 matches in 12 files; per file:
 * src/a.ts 40, src/b.ts 3, … and 5 more files" (files in order of appearance,
 * at most 20 and `maxTokens`), or "[loupe] 40 matches in src/a.ts" for one file.
 */
export function searchCountsLine(grep: GrepOutput, maxTokens: number, counter: TokenCounter): string {
  const matches = grep.hits.reduce((sum, hits) => sum + hits.length, 0);
  const what = plural(matches, "match", "matches");
  if (grep.files.length === 1) return grep.files[0] === "" ? `[loupe] ${what}` : `[loupe] ${what} in ${grep.files[0] ?? ""}`;
  const items = grep.files.map((file, id) => `${file} ${formatNumber(grep.hits[id]?.length ?? 0)}`);
  return boundedLine(`[loupe] ${what} in ${plural(grep.files.length, "file", "files")}; per file: `, items, {
    maxItems: MAX_NAMED_FILES,
    maxTokens,
    counter,
    more: (count) => `… and ${plural(count, "more file", "more files")}`,
  });
}

/**
 * The notice naming files a view shows no line of, with their hit counts and
 * where their lines are in the original: "[loupe] no line shown from 3 files:
 * src/x.ts 3 (lines 40–57), src/y.ts 1 (line 80), … and 1 more".
 */
export function omittedFilesLine(grep: GrepOutput, omitted: readonly number[], maxTokens: number, counter: TokenCounter): string {
  const first = new Int32Array(grep.files.length).fill(-1);
  const last = new Int32Array(grep.files.length);
  grep.fileOf.forEach((id, index) => {
    if (id < 0) return;
    if (first[id] === -1) first[id] = index + 1;
    last[id] = index + 1;
  });
  const items = omitted.map((id) => {
    const [from, to] = [first[id] ?? 0, last[id] ?? 0];
    const where = from === to ? `line ${formatNumber(from)}` : `lines ${formatNumber(from)}–${formatNumber(to)}`;
    return `${grep.files[id] ?? ""} ${formatNumber(grep.hits[id]?.length ?? 0)} (${where})`;
  });
  return boundedLine(`[loupe] no line shown from ${plural(omitted.length, "file", "files")}: `, items, {
    maxItems: MAX_NAMED_FILES,
    maxTokens,
    counter,
    more: (count) => `… and ${formatNumber(count)} more`,
  });
}
