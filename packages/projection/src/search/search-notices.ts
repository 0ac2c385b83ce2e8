import { formatLine, formatNumber } from "../format-number.js";
import type { TokenCounter } from "../token-counter.js";
import { boundedLine, fitItems } from "./bounded-line.js";
import type { GrepOutput } from "./parse-grep-output.js";

/** Most files a search notice names. */
export const MAX_NAMED_FILES = 20;

const plural = (count: number, one: string, many: string): string => `${formatNumber(count)} ${count === 1 ? one : many}`;

/**
 * The directory every file name starts with ("/testbed/django/" for
 * "/testbed/django/a.py" and "/testbed/django/db/b.py"), which notices say once
 * instead of in every name; "" when there is none worth factoring out.
 */
export function commonDirectory(files: readonly string[]): string {
  const [first, ...rest] = files;
  if (first === undefined || rest.length === 0) return "";
  let length = first.lastIndexOf("/") + 1;
  for (const file of rest) {
    // At length 1 (the prefix "/") no shorter prefix ends in "/": stop at none (a negative lastIndexOf start finds index 0 again).
    while (length > 0 && !file.startsWith(first.slice(0, length))) length = length === 1 ? 0 : first.lastIndexOf("/", length - 2) + 1;
  }
  return length > 2 ? first.slice(0, length) : "";
}

/**
 * The header of a search view: "[loupe] 143 matches in 12 files under src/;
 * per file: a.ts 40, lib/b.ts 3, … and 5 more files" (files in order of
 * appearance, at most 20 and `maxTokens`, named below their common directory),
 * or "[loupe] 40 matches in src/a.ts" for one file.
 */
export function searchCountsLine(grep: GrepOutput, maxTokens: number, counter: TokenCounter): string {
  const matches = grep.hits.reduce((sum, hits) => sum + hits.length, 0);
  const what = plural(matches, "match", "matches");
  if (grep.files.length === 1) return grep.files[0] === "" ? `[loupe] ${what}` : `[loupe] ${what} in ${grep.files[0] ?? ""}`;
  const base = commonDirectory(grep.files);
  const items = grep.files.map((file, id) => `${file.slice(base.length)} ${formatNumber(grep.hits[id]?.length ?? 0)}`);
  const under = base === "" ? "" : ` under ${base}`;
  return boundedLine(`[loupe] ${what} in ${plural(grep.files.length, "file", "files")}${under}; per file: `, items, {
    maxItems: MAX_NAMED_FILES,
    maxTokens,
    counter,
    more: (count) => `… and ${plural(count, "more file", "more files")}`,
  });
}

/**
 * The notice naming files a view shows no line of, with their hit counts and
 * the original lines they span: "[loupe] no line shown from 3 files: x.ts 3
 * (lines 40–57), y.ts 1 (line 80), … and 1 more", named below `base`, the
 * common directory the counts line gives. When the spans keep any of the first
 * `mustName` files from being named (or `spans` is false), names and counts alone ("x.ts 3, y.ts 1").
 */
export function omittedFilesLine(
  grep: GrepOutput,
  omitted: readonly number[],
  base: string,
  maxTokens: number,
  counter: TokenCounter,
  mustName = 0,
  spans = true,
): string {
  const first = new Int32Array(grep.files.length).fill(-1);
  const last = new Int32Array(grep.files.length);
  grep.fileOf.forEach((id, index) => {
    if (id < 0) return;
    if (first[id] === -1) first[id] = index + 1;
    last[id] = index + 1;
  });
  const item = (id: number, spans: boolean): string => {
    const named = `${(grep.files[id] ?? "").slice(base.length)} ${formatNumber(grep.hits[id]?.length ?? 0)}`;
    if (!spans) return named;
    const [from, to] = [first[id] ?? 0, last[id] ?? 0];
    return `${named} (${from === to ? `line ${formatLine(from)}` : `lines ${formatLine(from)}–${formatLine(to)}`})`;
  };
  const fit = (spans: boolean): { line: string; named: number } =>
    fitItems(
      `[loupe] no line shown from ${plural(omitted.length, "file", "files")}: `,
      omitted.map((id) => item(id, spans)),
      { maxItems: MAX_NAMED_FILES, maxTokens, counter, more: (count) => `… and ${formatNumber(count)} more` },
    );
  if (!spans) return fit(false).line;
  const withSpans = fit(true);
  if (withSpans.named >= Math.min(mustName, MAX_NAMED_FILES)) return withSpans.line;
  const brief = fit(false);
  return brief.named > withSpans.named ? brief.line : withSpans.line;
}
