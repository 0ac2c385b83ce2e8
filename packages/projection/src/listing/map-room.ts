import type { TokenCounter } from "../token-counter.js";
import { LISTING_MAP_OPENING, MIN_NAME_TOKENS } from "./listing-map.js";
import { entryLabel, type Listing } from "./parse-listing.js";
import { spreadSample } from "./spread-sample.js";

// Entries sampled (spread over the listing) to estimate what a line and a name cost.
const SAMPLED_ENTRIES = 16;

/**
 * Tokens to keep for the map of omitted entries: 0 when the share cannot name a few entries or the lines
 * likely fit whole; else, estimated from what a name and a line cost on average, what naming the entries
 * that `room` leaves out costs — at most `mapTokens`. With the names' tokens per character, the map's first guess.
 */
export function mapRoom(
  lines: readonly string[],
  listing: Listing,
  room: number,
  mapTokens: number,
  counter: TokenCounter,
): { reserve: number; tokensPerChar?: number } {
  const opening = counter.count(LISTING_MAP_OPENING) + 8;
  if (mapTokens < opening + 4 * MIN_NAME_TOKENS) return { reserve: 0 };
  const entries: number[] = [];
  for (let index = 0; index < listing.isEntry.length; index++) if (listing.isEntry[index] === 1) entries.push(index);
  if (entries.length === 0) return { reserve: 0 };
  const sample = spreadSample(entries.length, SAMPLED_ENTRIES).map((position) => entries[position] ?? 0);
  // What ", name" costs in a map, from one count of the sample's names; what a line costs, counted line by line
  // (the selection reuses those counts).
  const names = sample.map((index) => `, ${entryLabel(lines, listing, index)}`).join("");
  const nameTokens = counter.count(names);
  let lineTokens = 0;
  for (const index of sample) lineTokens += counter.count(lines[index] ?? "");
  const perName = Math.max(MIN_NAME_TOKENS, nameTokens / sample.length);
  const perLine = Math.max(1, lineTokens / sample.length);
  // Lines and names compete for the room: kept lines k and named entries n with k·line + n·name ≤ room.
  const omitted = entries.length - Math.floor(Math.max(0, room - mapTokens) / perLine);
  if (omitted <= 0) return { reserve: 0 };
  // A twentieth more: names vary around the sample's average, and a map one name short names it with "1 more".
  return { reserve: Math.min(mapTokens, Math.ceil((opening + omitted * perName) * 1.05)), tokensPerChar: nameTokens / Math.max(1, names.length) };
}
