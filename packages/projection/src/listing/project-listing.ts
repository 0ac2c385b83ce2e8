import { createCachingCounter } from "../file-read/caching-counter.js";
import { intentSelection } from "../intent/intent-selection.js";
import { buildLineView } from "../lines/build-line-view.js";
import type { LineBlock } from "../lines/select-lines.js";
import { sharesOf } from "../projectors/projection-shares.js";
import type { Projector } from "../projectors/projector.js";
import type { TokenCounter } from "../token-counter.js";
import { utf8Length } from "../utf8-length.js";
import { chooseCutDepth, listingGroups, type ListingGroup } from "./listing-groups.js";
import { listingMapNotice, LISTING_MAP_OPENING, MIN_NAME_TOKENS } from "./listing-map.js";
import { listingGapNotice, listingHeader, subtreeEntries } from "./listing-notices.js";
import { entryLabel, parseListing, type Listing } from "./parse-listing.js";

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
  const intentNotice = intent.selectionNotice;
  const selectionNotice =
    mapReserve > 0
      ? (kept: Uint8Array): string =>
          [intentNotice?.(kept) ?? "", listingMapNotice(lines, listing, kept, mapReserve - 2, counter, tokensPerChar)].filter((line) => line !== "").join("\n")
      : intentNotice;
  const intentReserve = mapReserve > 0 && intentNotice ? counter.count(intentNotice(new Uint8Array(total))) + 2 : 0;
  return buildLineView(lines, blocks, {
    budgetTokens,
    maxViewBytes: context.maxViewBytes,
    counter,
    describeGap,
    header,
    ...(selectionNotice ? { selectionNotice } : {}),
    ...(mapReserve > 0 ? { selectionNoticeTokens: mapReserve + intentReserve } : {}),
  });
};

/**
 * Tokens to keep for the map of omitted entries: 0 when the share cannot name a few entries or the lines
 * likely fit whole; else, estimated from what a name and a line cost on average, what naming the entries
 * that `room` leaves out costs — at most `mapTokens`. With the names' tokens per character, the map's first guess.
 */
function mapRoom(
  lines: readonly string[],
  listing: Listing,
  room: number,
  mapTokens: number,
  counter: TokenCounter,
): { reserve: number; tokensPerChar?: number } {
  const opening = counter.count(LISTING_MAP_OPENING) + 8;
  if (mapTokens < opening + 4 * MIN_NAME_TOKENS) return { reserve: 0 };
  const names = sampledNames(lines, listing, counter);
  if (names.entries.length === 0) return { reserve: 0 };
  const lineTokens = sampledLineTokens(lines, names.entries, counter);
  // Lines and names compete for the room: kept lines k and named entries n with k·line + n·name ≤ room.
  const omitted = names.entries.length - Math.floor(Math.max(0, room - mapTokens) / lineTokens);
  if (omitted <= 0) return { reserve: 0 };
  // A twentieth more: names vary around the sample's average, and a map one name short names it with "1 more".
  return { reserve: Math.min(mapTokens, Math.ceil((opening + omitted * names.tokens) * 1.05)), tokensPerChar: names.tokensPerChar };
}

// Entries sampled (spread over the listing) to estimate what a line and a name cost.
const SAMPLED_ENTRIES = 16;

/** The entry lines, and what ", name" costs in a map: tokens and tokens per character, from one count of a sample. */
interface SampledNames {
  readonly entries: readonly number[];
  readonly tokens: number;
  readonly tokensPerChar: number;
}

function sampledNames(lines: readonly string[], listing: Listing, counter: TokenCounter): SampledNames {
  const entries: number[] = [];
  for (let index = 0; index < listing.isEntry.length; index++) if (listing.isEntry[index] === 1) entries.push(index);
  const step = Math.max(1, Math.floor(entries.length / SAMPLED_ENTRIES));
  let sample = "";
  let count = 0;
  for (let position = 0; position < entries.length; position += step, count++) sample += `, ${entryLabel(lines, listing, entries[position] ?? 0)}`;
  const tokens = count === 0 ? 0 : counter.count(sample);
  return { entries, tokens: Math.max(MIN_NAME_TOKENS, tokens / Math.max(1, count)), tokensPerChar: tokens / Math.max(1, sample.length) };
}

/** Average tokens of an entry line, from up to 16 of them spread over the listing (counted line by line: the selection reuses the counts). */
function sampledLineTokens(lines: readonly string[], entries: readonly number[], counter: TokenCounter): number {
  const step = Math.max(1, Math.floor(entries.length / SAMPLED_ENTRIES));
  let tokens = 0;
  let count = 0;
  for (let position = 0; position < entries.length; position += step, count++) tokens += counter.count(lines[entries[position] ?? 0] ?? "");
  return Math.max(1, tokens / Math.max(1, count));
}

/** Estimated tokens of a typical line, from the bytes of up to 200 lines spread over the listing. */
function averageLineTokens(lines: readonly string[]): number {
  const step = Math.max(1, Math.floor(lines.length / 200));
  let bytes = 0;
  let count = 0;
  for (let index = 0; index < lines.length; index += step, count++) bytes += utf8Length(lines[index] ?? "");
  return count === 0 ? 1 : Math.max(1, Math.ceil(bytes / count / BYTES_PER_TOKEN));
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
