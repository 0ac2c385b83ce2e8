import { createCachingCounter } from "../file-read/caching-counter.js";
import { intentSelection } from "../intent/intent-selection.js";
import { buildLineView } from "../lines/build-line-view.js";
import { withMapNotice } from "../lines/map-notice.js";
import type { LineBlock } from "../lines/select-lines.js";
import { sharesOf } from "../projectors/projection-shares.js";
import type { Projector } from "../projectors/projector.js";
import { utf8Length } from "../utf8-length.js";
import { chooseCutDepth, listingGroups, type ListingGroup } from "./listing-groups.js";
import { listingMapNotice } from "./listing-map.js";
import { listingGapNotice, listingHeader, subtreeEntries } from "./listing-notices.js";
import { mapRoom } from "./map-room.js";
import { parseListing } from "./parse-listing.js";
import { spreadSample } from "./spread-sample.js";

// Bytes per token assumed when estimating what a sample line costs, and a generous upper bound.
const BYTES_PER_TOKEN = 4;
const MAX_BYTES_PER_TOKEN = 8;

/**
 * Projects a directory listing (ls, ls -R, find, tree, Glob): whole lines
 * only, so no path is ever cut. Keeps the head, then the first line of every
 * subtree at the deepest cut whose samples fit (so every directory shows up
 * when the budget allows), a short tail, and then more lines of each subtree
 * in turn. The omitted runs line up with subtrees and their notices name the
 * subtree and its entry count; a header gives the totals and the entries per
 * directory, and one notice line names the omitted entries by directory
 * (see listingMapNotice; at most `listing.map` of the budget), so a listing
 * too long to show whole still shows every name when its names fit. Pure and
 * deterministic.
 */
export const projectListing: Projector = (input, context) => {
  const { lines } = input;
  const { budgetTokens } = context;
  // Of the room after the header and one notice: head, one sample per subtree, tail; the header's is of the budget.
  const shares = sharesOf(context).listing;
  const counter = createCachingCounter(context.counter);
  const total = lines.length;
  const listing = parseListing(lines);
  const headerTokens = Math.floor(budgetTokens * shares.header);
  const headerLine = listingHeader(listing, subtreeEntries(listing), headerTokens, counter);
  const header = counter.within(headerLine + "\n", headerTokens) === false ? [] : [headerLine];
  // A notice for the whole listing names its base directory: about what a notice for one subtree costs.
  const gapTokens = counter.count(listingGapNotice(context.resultId, listing, Number.POSITIVE_INFINITY)(1, total, total).description + "\n") + 2;
  const available = Math.max(0, budgetTokens - gapTokens - (header.length === 0 ? 0 : counter.count(headerLine + "\n")));
  // Entries the intent names come first, alone (a listing's neighbours are unrelated entries).
  const intent = intentSelection(input, context, {
    counter,
    gapTokens,
    maxTokens: Math.floor(available * sharesOf(context).intent.listing),
    before: 0,
    after: 0,
    priority: 0,
  });
  // Room for the map of omitted entries, kept before any line: what naming the entries the lines will likely
  // leave out costs, at most its share. The map stays within that room (fewer lines would leave out more
  // entries, and a map growing with them would take the lines' room in turn).
  const mapTokens = Math.floor(budgetTokens * shares.map);
  const { reserve: mapReserve, tokensPerChar } = mapRoom(lines, listing, Math.max(0, available - intent.tokens), mapTokens, counter);
  const room = Math.max(0, available - intent.tokens - mapReserve);
  const sampleTokens = gapTokens + averageLineTokens(lines);
  const maxGroups = Math.max(1, Math.floor((room * shares.samples) / sampleTokens));
  const depth = chooseCutDepth(listing, maxGroups);
  const groups = sampled(listingGroups(listing, depth), maxGroups);
  const describeGap = listingGapNotice(context.resultId, listing, depth);
  const blocks: LineBlock[] = [
    ...intent.blocks,
    { start: 0, end: total - 1, priority: 0, take: "head", maxTokens: Math.floor(room * shares.head) },
    ...groups.map((group): LineBlock => ({ start: group.start, end: group.start + 1, priority: 1, take: "all" })),
    { start: 1, end: total, priority: 1, take: "tail", maxTokens: Math.floor(room * shares.tail) },
    ...roundRobin(groups, lines, budgetTokens),
    { start: 0, end: total, priority: 3, take: "head", skip: true },
    { start: 0, end: total, priority: 4, take: "tail", skip: true },
  ];
  const notices = withMapNotice(
    intent.selectionNotice,
    (kept) => listingMapNotice(lines, listing, kept, mapReserve - 2, counter, tokensPerChar),
    mapReserve,
    total,
    counter,
  );
  return buildLineView(lines, blocks, {
    budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter,
    describeGap,
    header,
    ...notices,
  });
};

/** Estimated tokens of a typical line, from the bytes of up to 200 lines spread over the listing. */
function averageLineTokens(lines: readonly string[]): number {
  const sample = spreadSample(lines.length, 200);
  let bytes = 0;
  for (const index of sample) bytes += utf8Length(lines[index] ?? "");
  return sample.length === 0 ? 1 : Math.max(1, Math.ceil(bytes / sample.length / BYTES_PER_TOKEN));
}

/** At most `limit` groups: all when they fit, else the largest (then earliest), in listing order. */
function sampled(groups: ListingGroup[], limit: number): ListingGroup[] {
  if (groups.length <= limit) return groups;
  const ranked = groups.map((group, order) => ({ group, order })).sort((a, b) => b.group.entries - a.group.entries || a.order - b.order);
  return ranked
    .slice(0, limit)
    .sort((a, b) => a.order - b.order)
    .map(({ group }) => group);
}

/**
 * Priority 2: each group's 2nd line, then each group's 3rd …, while the lines'
 * estimated tokens could still fit the budget (later blocks could only fail).
 */
function roundRobin(groups: readonly ListingGroup[], lines: readonly string[], budgetTokens: number): LineBlock[] {
  const blocks: LineBlock[] = [];
  let estimate = 0;
  for (let offset = 1, added = true; added && estimate <= budgetTokens; offset++) {
    added = false;
    for (const group of groups) {
      const index = group.start + offset;
      if (index >= group.end) continue;
      blocks.push({ start: index, end: index + 1, priority: 2, take: "all" });
      estimate += Math.max(1, Math.floor(utf8Length(lines[index] ?? "") / MAX_BYTES_PER_TOKEN));
      added = true;
    }
  }
  return blocks;
}
