import type { Listing } from "./parse-listing.js";

/** A contiguous run of lines within one subtree (or one directory's own entries) at the cut depth. */
export interface ListingGroup {
  /** 0-based first line and the index after the last. */
  start: number;
  end: number;
  /** Entry lines in the run. */
  entries: number;
}

/**
 * Splits a listing into runs of lines that stay within one directory at
 * `depth` (lines about shallower directories form runs of their own). In
 * `find`, `tree` and `ls -R` output a subtree is contiguous, so a deeper cut
 * gives more, smaller runs. Lines outside any directory join the run before.
 */
export function listingGroups(listing: Listing, depth: number): ListingGroup[] {
  const { tree, nodeOf, isEntry } = listing;
  const groups: ListingGroup[] = [];
  let previous = -1;
  let current: ListingGroup | undefined;
  for (let index = 0; index < nodeOf.length; index++) {
    const node = nodeOf[index] ?? -1;
    const split = node !== -1 && previous !== -1 && node !== previous && (tree.depth[tree.commonAncestor(previous, node)] ?? 0) < depth;
    if (current === undefined || split) {
      current = { start: index, end: index, entries: 0 };
      groups.push(current);
    }
    current.end = index + 1;
    current.entries += isEntry[index] ?? 0;
    if (node !== -1) previous = node;
  }
  return groups;
}

/**
 * The deepest cut whose number of runs is at most `maxGroups` (so every run
 * can show a sample), or, when even the shallowest cut that splits the listing
 * has more runs, that shallowest cut. 0 when the listing does not split.
 */
export function chooseCutDepth(listing: Listing, maxGroups: number): number {
  const { tree, nodeOf } = listing;
  // splits[d]: boundaries between consecutive lines whose deepest common directory has depth d.
  const splits: number[] = [];
  let maxDepth = 0;
  let previous = -1;
  for (const node of nodeOf) {
    if (node === -1) continue;
    maxDepth = Math.max(maxDepth, tree.depth[node] ?? 0);
    if (previous !== -1 && node !== previous) {
      const depth = tree.depth[tree.commonAncestor(previous, node)] ?? 0;
      splits[depth] = (splits[depth] ?? 0) + 1;
    }
    previous = node;
  }
  let groups = 1;
  let shallowest = 0;
  let best = 0;
  for (let depth = 1; depth <= maxDepth + 1; depth++) {
    groups += splits[depth - 1] ?? 0;
    if (groups > 1 && shallowest === 0) shallowest = depth;
    if (groups <= maxGroups) best = depth;
  }
  return shallowest === 0 ? 0 : Math.max(best, shallowest);
}
