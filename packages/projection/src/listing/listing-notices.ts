import { continuationJson } from "../continuation.js";
import { formatLine, formatNumber } from "../format-number.js";
import type { DescribeGap } from "../lines/render-selection.js";
import { boundedLine } from "../search/bounded-line.js";
import type { TokenCounter } from "../token-counter.js";
import type { Listing } from "./parse-listing.js";

/** Most directories the header names. */
export const MAX_NAMED_DIRECTORIES = 20;
// Longest directory label in a notice (code points), and the code points kept from each end of a longer one.
const MAX_LABEL_CHARS = 160;
const LABEL_END_CHARS = 60;

const entries = (count: number): string => `${formatNumber(count)} ${count === 1 ? "entry" : "entries"}`;

/** A directory as notices name it: its path as printed, ending in "/" (a path over 160 code points by its two ends). */
export function directoryLabel(path: string): string {
  const label = path.endsWith("/") ? path : `${path}/`;
  if (label.length <= MAX_LABEL_CHARS) return label;
  // A "directory" this long is a line the parser could not read as a path: notices name it by its ends.
  const points = Array.from(label);
  if (points.length <= MAX_LABEL_CHARS) return label;
  return `${points.slice(0, LABEL_END_CHARS).join("")}…${points.slice(-LABEL_END_CHARS).join("")}`;
}

/** Per directory id: the entries anywhere below it in the listing. */
export function subtreeEntries(listing: Listing): Int32Array {
  const { tree, parentOf } = listing;
  const counts = new Int32Array(tree.path.length);
  for (const parent of parentOf) if (parent !== -1) counts[parent] = (counts[parent] ?? 0) + 1;
  // A directory's id is larger than its parent's (ancestors are registered first): add children up, deepest first.
  for (let id = counts.length - 1; id > 0; id--) {
    const parent = tree.parent[id] ?? 0;
    counts[parent] = (counts[parent] ?? 0) + (counts[id] ?? 0);
  }
  return counts;
}

/**
 * The header of a listing view: "[loupe] 4,812 entries in 96 directories;
 * src/ 1,203, src/components/ 310, …": the entry count, the number of
 * directories holding entries, then the directories below the one listed with
 * the entries anywhere below them: shallowest first, largest first within a
 * depth; at most 20 and `maxTokens`.
 */
export function listingHeader(listing: Listing, subtree: Int32Array, maxTokens: number, counter: TokenCounter): string {
  const { tree, parentOf } = listing;
  const total = subtree[0] ?? 0;
  const holds = new Uint8Array(tree.path.length);
  let holding = 0;
  for (const parent of parentOf) {
    if (parent === -1 || holds[parent] === 1) continue;
    holds[parent] = 1;
    holding++;
  }
  const base = baseDirectory(listing);
  // Shallowest first, then largest: only the first MAX_NAMED_DIRECTORIES can be named, so keep just those
  // (a bounded insertion instead of sorting every directory of a large listing).
  const order = (a: number, b: number): number => (tree.depth[a] ?? 0) - (tree.depth[b] ?? 0) || (subtree[b] ?? 0) - (subtree[a] ?? 0) || a - b;
  const top: number[] = [];
  let eligible = 0;
  const baseDepth = tree.depth[base] ?? 0;
  for (let id = 0; id < tree.path.length; id++) {
    if ((subtree[id] ?? 0) <= 0 || (tree.depth[id] ?? 0) <= baseDepth) continue;
    eligible++;
    if (top.length === MAX_NAMED_DIRECTORIES && order(id, top[top.length - 1] ?? 0) >= 0) continue;
    let at = top.length;
    while (at > 0 && order(id, top[at - 1] ?? 0) < 0) at--;
    top.splice(at, 0, id);
    if (top.length > MAX_NAMED_DIRECTORIES) top.pop();
  }
  const named = top.map((id) => `${directoryLabel(tree.path[id] ?? "")} ${formatNumber(subtree[id] ?? 0)}`);
  const directories = `${formatNumber(holding)} ${holding === 1 ? "directory" : "directories"}`;
  const prefix = `[loupe] ${entries(total)} in ${directories}${eligible > 0 ? "; " : ""}`;
  return boundedLine(prefix, named, {
    maxItems: MAX_NAMED_DIRECTORIES,
    totalItems: eligible,
    maxTokens,
    counter,
    more: (count) => `… and ${formatNumber(count)} more`,
  });
}

/** The deepest directory every line of the listing is about (the directory listed). */
function baseDirectory(listing: Listing): number {
  let base = -1;
  // A node already taken in leaves the base as it is: skip runs of lines about one directory.
  let last = -1;
  for (const node of listing.nodeOf) {
    if (node === -1 || node === base || node === last) continue;
    last = node;
    base = base === -1 ? node : listing.tree.commonAncestor(base, node);
  }
  return Math.max(0, base);
}

/**
 * The notice for omitted listing lines, naming the deepest directory (at
 * most `maxDepth` deep: the subtrees the view was cut into) that holds all of
 * them and how many entries they are: "[loupe] lines 200–1402 of 4,900
 * omitted (src/vendor/, 1,203 entries); recover with {…}".
 */
export function listingGapNotice(resultId: string, listing: Listing, maxDepth: number): DescribeGap {
  const { tree, nodeOf, isEntry } = listing;
  const before = new Int32Array(isEntry.length + 1);
  for (let index = 0; index < isEntry.length; index++) before[index + 1] = (before[index] ?? 0) + (isEntry[index] ?? 0);
  return (startLine, endLine, totalLines) => {
    let common = -1;
    let last = -1;
    for (let index = startLine - 1; index < endLine; index++) {
      const node = nodeOf[index] ?? -1;
      if (node === -1 || node === common || node === last) continue;
      last = node;
      common = common === -1 ? node : tree.commonAncestor(common, node);
    }
    while (common > 0 && (tree.depth[common] ?? 0) > maxDepth) common = tree.parent[common] ?? 0;
    const count = (before[endLine] ?? 0) - (before[startLine - 1] ?? 0);
    const where = common > 0 ? `${directoryLabel(tree.path[common] ?? "")}, ${entries(count)}` : entries(count);
    const range = startLine === endLine ? `line ${formatLine(startLine)}` : `lines ${formatLine(startLine)}–${formatLine(endLine)}`;
    const what = `[loupe] ${range} of ${formatNumber(totalLines)} omitted (${where})`;
    if (resultId === "") return { description: `${what}; the full result could not be saved`, continuationJson: "" };
    const json = continuationJson({ result_id: resultId, start_line: startLine, end_line: endLine });
    return { description: `${what}; recover with ${json}`, continuationJson: json };
  };
}
