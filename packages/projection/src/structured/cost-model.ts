import type { TokenCounter } from "../token-counter.js";
import { utf8Length } from "../utf8-length.js";
import { isOpenable, type Cost } from "./structure-plan.js";
import { compactJsonWithin } from "./compact-json-within.js";
import { jsonContinuation, markerText, MARKER_KEY, type OmittedPart } from "./structured-omission.js";
import { breaksLines, type ViewNode } from "./view-tree.js";

/** Strings up to this many UTF-16 units are shown when their member is; longer ones start as markers. */
export const INLINE_STRING_CHARS = 200;
/** Containers whose compact JSON is at most this many bytes are shown whole (a marker would not be shorter). */
export const INLINE_CONTAINER_BYTES = 96;

/** A value as first shown: verbatim, or a marker that a later open or reveal step may replace. */
export interface Representation {
  node: ViewNode;
  cost: Cost;
  follow?: "open" | "reveal";
}

/** Estimates what fragments of a JSON view cost (token counts of each fragment, summed). */
export interface CostModel {
  measure(text: string): Cost;
  /** One more element in a container: its comma, and its line break where the container breaks lines. */
  element(kind: "object" | "array", depth: number): Cost;
  marker(part: OmittedPart, pointer: string): Representation;
  represent(value: unknown, pointer: string): Representation;
}

/** Adds costs. */
export function sumCosts(...costs: Cost[]): Cost {
  let tokens = 0;
  let bytes = 0;
  for (const cost of costs) {
    tokens += cost.tokens;
    bytes += cost.bytes;
  }
  return { tokens, bytes };
}

/** Subtracts `b` from `a`. */
export function subtractCost(a: Cost, b: Cost): Cost {
  return { tokens: a.tokens - b.tokens, bytes: a.bytes - b.bytes };
}

/** Number of Unicode code points of `text` (a lone surrogate counts as one). */
export function codePoints(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      count--;
      index++;
    }
  }
  return count;
}

// Fragments up to this many UTF-16 units have their counts remembered (keys, markers and small values repeat across items and attempts).
const CACHED_FRAGMENT_CHARS = 256;

/** Creates the cost model of views of one result; it remembers the counts of short fragments, so reuse it across attempts. */
export function createCostModel(counter: TokenCounter, resultId: string): CostModel {
  const cache = new Map<string, Cost>();
  const measure = (text: string): Cost => {
    const cached = cache.get(text);
    if (cached !== undefined) return cached;
    const cost = { tokens: counter.count(text), bytes: utf8Length(text) };
    if (text.length <= CACHED_FRAGMENT_CHARS) cache.set(text, cost);
    return cost;
  };
  const marker = (part: OmittedPart, pointer: string): Representation => ({
    node: { kind: "marker", part, pointer },
    cost: measure(markerText(part, jsonContinuation(resultId, pointer))),
  });
  return {
    measure,
    marker,
    element: (kind, depth) => ({ tokens: 1, bytes: breaksLines(kind, depth) ? 2 : 1 }),
    represent(value, pointer) {
      if (typeof value === "string" && value.length > INLINE_STRING_CHARS)
        return { ...marker({ what: "value", type: "string", chars: codePoints(value) }, pointer), follow: "reveal" };
      if (typeof value !== "object" || value === null) {
        const json = JSON.stringify(value) ?? "null";
        return { node: { kind: "scalar", json }, cost: measure(json) };
      }
      if (!isOpenable(value)) {
        // Empty, or a data object with a "$loupe" member: shown whole only when empty, so markers stay unambiguous.
        const keys = Object.keys(value).length;
        if (keys === 0) return { node: { kind: "scalar", json: Array.isArray(value) ? "[]" : "{}" }, cost: measure("{}") };
        return marker({ what: "value", type: "object", keys }, pointer);
      }
      const small = compactJsonWithin(value, INLINE_CONTAINER_BYTES, MARKER_KEY);
      if (small !== undefined) return { node: { kind: "scalar", json: small }, cost: measure(small) };
      const part: OmittedPart = Array.isArray(value)
        ? { what: "value", type: "array", items: value.length }
        : { what: "value", type: "object", keys: Object.keys(value).length };
      return { ...marker(part, pointer), follow: "open" };
    },
  };
}
