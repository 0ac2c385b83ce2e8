import { formatNumber } from "../format-number.js";
import type { TokenCounter } from "../token-counter.js";
import { directoryLabel } from "./listing-notices.js";
import { entryLabel, type Listing } from "./parse-listing.js";
import { spreadSample } from "./spread-sample.js";

/** How the map's line starts: then ": " or, when the omitted entries share a directory, " in <directory>/: ". */
export const LISTING_MAP_OPENING = "[loupe] omitted entries";
const CLOSING = "; recover a range as below";
// The fewest tokens one name costs in a map: the name and its ", ".
export const MIN_NAME_TOKENS = 2;
const MAX_ATTEMPTS = 3;
// A fitting line this close to the room is kept: one more count for a few more names is not worth it.
const CLOSE_ENOUGH = 0.95;
// Characters per token first assumed for names (paths, identifiers: denser than prose), and a margin of
// characters on every estimate of the line (render(0) already holds its "; N more not named"): guesses that
// overshoot less leave attempts for growing (without it, names shown at 500 tokens: dev 78.7% → 77.9%).
const NAME_CHARS_PER_TOKEN = 3.2;
const MARGIN_CHARS = 24;
const SAMPLED_NAMES = 32;

/** The omitted entries as runs of one directory each, in line order: what a map groups its names by. */
interface OmittedRuns {
  /** Entry lines left out (0-based, ascending). */
  readonly entries: readonly number[];
  /** Per omitted entry: its run. */
  readonly runOf: Int32Array;
  /** Per run: its directory, and its length in entries. */
  readonly directory: readonly number[];
  readonly length: readonly number[];
}

function omittedRuns(listing: Listing, kept: Uint8Array): OmittedRuns {
  const entries: number[] = [];
  const directory: number[] = [];
  const length: number[] = [];
  for (let index = 0; index < listing.isEntry.length; index++) {
    if (listing.isEntry[index] !== 1 || kept[index] === 1) continue;
    const parent = listing.parentOf[index] ?? -1;
    const last = directory.length - 1;
    // A run ends where an omitted entry of another directory comes (shown lines between do not end it).
    if (last >= 0 && directory[last] === parent) length[last] = (length[last] ?? 0) + 1;
    else {
      directory.push(parent);
      length.push(1);
    }
    entries.push(index);
  }
  const runOf = new Int32Array(entries.length);
  for (let run = 0, position = 0; run < length.length; run++) for (let step = 0; step < (length[run] ?? 0); step++) runOf[position++] = run;
  return { entries, runOf, directory, length };
}

/**
 * One notice line naming the entries a listing view leaves out, by directory:
 * "[loupe] omitted entries in ./src/: cli/: main.ts, args.ts; core/: index.ts, …;
 * recover a range as below" (the directory they share once, each other
 * directory by its path from it) — each name as short as the listing allows
 * (see entryLabel: no permissions, sizes or dates of a long listing, no
 * directory repeated before each path of a `find`), so a map names several
 * entries for the tokens one long line costs. When not all fit within
 * `maxTokens`, an evenly spread choice of them does, in line order (a
 * directory some of whose names are left out ends in "…"), then the number
 * not named; "" when nothing is omitted or not one name fits. Counts the line
 * once or a few times, not each name (`tokensPerChar`, of names as the caller
 * sampled them, is the first guess); the rest costs in proportion to the names
 * shown. Pure; the names are the output's own text.
 */
export function listingMapNotice(
  lines: readonly string[],
  listing: Listing,
  kept: Uint8Array,
  maxTokens: number,
  counter: TokenCounter,
  tokensPerChar = 1 / NAME_CHARS_PER_TOKEN,
): string {
  const runs = omittedRuns(listing, kept);
  const total = runs.entries.length;
  if (total === 0) return "";
  const labels = new Map<number, string>();
  const labelOf = (position: number): string => {
    let label = labels.get(position);
    if (label === undefined) labels.set(position, (label = entryLabel(lines, listing, runs.entries[position] ?? 0)));
    return label;
  };
  const base = commonDirectory(listing, runs.directory);
  const pathOf = pathsFrom(listing, base);
  const basePath = base === -1 ? "" : (listing.tree.path[base] ?? "");
  const opening = basePath === "" ? `${LISTING_MAP_OPENING}: ` : `${LISTING_MAP_OPENING} in ${directoryLabel(basePath)}: `;
  const render = (count: number): string => renderMap(runs, count, labelOf, { opening, pathOf });
  const nameChars = averageNameChars(total, labelOf);
  const fixedChars = render(0).length + MARGIN_CHARS;
  // The line's characters without building it: the names at their average length, each run's label once.
  const lineChars = (count: number): number => {
    let chars = fixedChars;
    let previous = -1;
    for (let step = 0; step < count; step++) {
      const run = runs.runOf[spreadAt(total, count, step)] ?? 0;
      chars += nameChars + (run === previous ? 0 : pathOf(runs.directory[run] ?? -1).length + 5);
      previous = run;
    }
    return chars;
  };
  // The most names whose line fits at a guessed number of tokens per character (no counting: found by
  // halving); then the line is counted, and the guess corrected from it, until a count fits.
  let perChar = tokensPerChar;
  let best = "";
  let bestCount = 0;
  let ceiling = Math.min(total, Math.floor(maxTokens / MIN_NAME_TOKENS));
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const count = mostWithin(bestCount, ceiling, (candidate) => lineChars(candidate) * perChar <= maxTokens);
    if (count <= bestCount) break;
    const line = render(count);
    const tokens = counter.count(line + "\n");
    // Tokens per estimated character: corrects the names' average length and the labels' as well.
    perChar = tokens / lineChars(count);
    if (tokens <= maxTokens) {
      best = line;
      bestCount = count;
      if (count === total || tokens >= maxTokens * CLOSE_ENOUGH) break;
    } else ceiling = count - 1;
  }
  return best;
}

/** The position of the `step`th of `count` choices spread evenly over `total` (all of them when `count` ≥ `total`). */
function spreadAt(total: number, count: number, step: number): number {
  return count >= total ? step : Math.floor(((step + 0.5) * total) / count);
}

/** The largest count in [low, high] for which `fits` holds, `fits` being monotone; `low` when none above it. */
function mostWithin(low: number, high: number, fits: (count: number) => boolean): number {
  let yes = low;
  let no = high + 1;
  while (no - yes > 1) {
    const middle = (yes + no) >> 1;
    if (fits(middle)) yes = middle;
    else no = middle;
  }
  return yes;
}

/** Average characters of ", name" over up to 32 of the omitted entries, spread over them. */
function averageNameChars(total: number, labelOf: (position: number) => string): number {
  const sample = spreadSample(total, SAMPLED_NAMES);
  let chars = 0;
  for (const position of sample) chars += labelOf(position).length + 2;
  return chars / Math.max(1, sample.length);
}

/** Each directory's path from `base` (their common directory; "" for `base` itself), as a map labels it, remembered. */
function pathsFrom(listing: Listing, base: number): (directory: number) => string {
  const basePath = base === -1 ? "" : (listing.tree.path[base] ?? "");
  const below = basePath === "" ? 0 : basePath === "/" ? 1 : basePath.length + 1;
  const known = new Map<number, string>();
  return (directory) => {
    let path = known.get(directory);
    if (path === undefined) known.set(directory, (path = directory === base ? "" : (listing.tree.path[directory] ?? "").slice(below)));
    return path;
  };
}

/** The deepest directory holding every run's directory (-1 when they have none). */
function commonDirectory(listing: Listing, directories: readonly number[]): number {
  let common = -1;
  for (const directory of directories) {
    if (directory === -1) continue;
    common = common === -1 || common === directory ? directory : listing.tree.commonAncestor(common, directory);
  }
  return common;
}

/**
 * The map line naming `count` omitted entries spread over them, grouped by run in line order after
 * `opening`; each directory by its path from the one they share (`pathOf`), that one's own entries without a label.
 */
function renderMap(
  runs: OmittedRuns,
  count: number,
  labelOf: (position: number) => string,
  directories: { opening: string; pathOf: (directory: number) => string },
): string {
  const total = runs.entries.length;
  const groups: string[] = [];
  const flush = (run: number, names: string[]): void => {
    if ((runs.length[run] ?? 0) > names.length) names.push("…");
    const path = directories.pathOf(runs.directory[run] ?? -1);
    groups.push(path === "" ? names.join(", ") : `${directoryLabel(path)}: ${names.join(", ")}`);
  };
  let names: string[] = [];
  let current = -1;
  for (let step = 0; step < Math.min(count, total); step++) {
    const position = spreadAt(total, count, step);
    const run = runs.runOf[position] ?? 0;
    if (run !== current && current !== -1) {
      flush(current, names);
      names = [];
    }
    current = run;
    names.push(labelOf(position));
  }
  if (current !== -1) flush(current, names);
  const rest = total - Math.min(count, total);
  return `${directories.opening}${groups.join("; ")}${rest > 0 ? `; ${formatNumber(rest)} more not named` : ""}${CLOSING}`;
}
