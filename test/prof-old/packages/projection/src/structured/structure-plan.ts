import { hasFailureSignal, isErrorKey, isIdentityKey, isQualificationKey } from "./field-classes.js";
import { MARKER_KEY } from "./structured-omission.js";
import type { ArrayNode, ObjectNode } from "./view-tree.js";

/**
 * Why a container is shown: `shape` (the root and the first item of its
 * arrays: shows keys and types), `failed` (an item that reports a failure:
 * evidence, shown fully before more items), `rep` (a representative item such
 * as the last one, or a container nested in an item: shown compactly),
 * `extra` (more items, as budget allows).
 */
export type Role = "shape" | "failed" | "rep" | "extra";

/** How a container was opened: its role, tier, rank (for extra items) and whether it is an array item. */
export interface Opening {
  role: Role;
  tier: number;
  rank: number;
  item: boolean;
}

/** Where a node sits: a member or item of a container, or the root. */
export interface Place {
  parent: ObjectNode | ArrayNode | undefined;
  index: number;
}

/** Tokens and bytes a change adds to a view (negative when it saves). */
export interface Cost {
  tokens: number;
  bytes: number;
}

/** One thing the greedy selection may add to a view. */
export type Step =
  | { kind: "member"; node: ObjectNode; index: number; value: unknown; opening: Opening; key: boolean }
  | { kind: "item"; node: ArrayNode; index: number; value: unknown; opening: Opening }
  | { kind: "open"; place: Place; value: object; pointer: string; depth: number; opening: Opening; marker: Cost; atomic: boolean }
  | { kind: "reveal"; place: Place; value: string; marker: Cost };

/*
 * Tiers, lowest first (within a tier: rank, then depth, then document order):
 *   0  the root; first items of arrays opened at tier 0
 *   1  other members of shape objects; last items and up to MAX_FAILED_ITEMS items reporting a failure
 *   2  opening containers nested in shape objects; other members of failed items and their containers;
 *      revealing long identity/error strings of shape and failed objects
 *   3  more items, round robin across arrays (rank = how many extra items that array already had a turn for)
 *   4  other members of rep/extra objects and their containers; long strings of shape objects
 *   5  long strings of rep/extra objects
 * Opening an object shows its identity, qualification and error members with it (all or nothing), so
 * every object shown carries its identity. A step never ranks before its container
 * (tier = max(own tier, container's tier)). Containers nested in a shape item are shown compactly
 * (role rep); wrappers on the way from the root to the main array keep the shape role.
 */
const MAX_FAILED_ITEMS = 10;
const MAX_SCANNED_ITEMS = 20_000;

/** The priority of a step: [tier, rank, depth]. */
export function priorityOf(tier: number, rank: number, depth: number): number[] {
  return [tier, rank, depth];
}

/** True for members shown with the record's identity: identifiers, names, statuses, qualifications, errors. */
export function isKeyMember(key: string): boolean {
  return isIdentityKey(key) || isQualificationKey(key) || isErrorKey(key);
}

/** True for an object a view may open: data objects with a "$loupe" member are only ever shown as markers. */
export function isOpenable(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  return Object.keys(value).length > 0 && !Object.prototype.hasOwnProperty.call(value, MARKER_KEY);
}

/** Tier of a non-key member of an object opened with `opening`. */
export function memberTier(opening: Opening): number {
  return Math.max(opening.role === "shape" ? 1 : opening.role === "failed" ? 2 : 4, opening.tier);
}

/** Opening of a container found as member `key` (isKey: a key member) of an object opened with `opening`. */
export function nestedOpening(opening: Opening, key: boolean): Opening {
  const role: Role = opening.role === "shape" && opening.item ? "rep" : opening.role;
  const tier = Math.max(opening.role === "shape" || opening.role === "failed" ? 2 : key ? 1 : 4, opening.tier);
  return { role, tier, rank: tier === opening.tier ? opening.rank : 0, item: false };
}

/** Tier of revealing a long string member of a container opened with `opening`. */
export function revealTier(opening: Opening, key: boolean): number {
  const own = opening.role === "shape" || opening.role === "failed" ? (key ? 2 : 4) : key ? 4 : 5;
  return Math.max(own, opening.tier);
}

/** The item steps an opened array starts with: first item, last item, items reporting failures; then the extra chain's first link. */
export function firstItemSteps(node: ArrayNode, values: readonly unknown[], opening: Opening): { steps: Step[]; planned: Set<number> } {
  const planned = new Set<number>([0]);
  const steps: Step[] = [{ kind: "item", node, index: 0, value: values[0], opening: { ...opening, item: true } }];
  const rep: Opening = { role: "rep", tier: Math.max(1, opening.tier), rank: opening.tier >= 1 ? opening.rank : 0, item: true };
  const failed: Opening = { ...rep, role: "failed" };
  const last = values.length - 1;
  if (last > 0) {
    planned.add(last);
    const item = values[last];
    steps.push({ kind: "item", node, index: last, value: item, opening: typeof item === "object" && item !== null && hasFailureSignal(item) ? failed : rep });
  }
  let count = 0;
  for (let index = 1; index < Math.min(last, MAX_SCANNED_ITEMS) && count < MAX_FAILED_ITEMS; index++) {
    const item = values[index];
    if (typeof item !== "object" || item === null || !hasFailureSignal(item)) continue;
    planned.add(index);
    steps.push({ kind: "item", node, index, value: item, opening: failed });
    count++;
  }
  return { steps, planned };
}

/** The next extra item of an array after `after` that was not planned already, or undefined at the end. */
export function nextExtraIndex(length: number, planned: ReadonlySet<number>, after: number): number | undefined {
  for (let index = after + 1; index < length; index++) if (!planned.has(index)) return index;
  return undefined;
}

/** Opening of the `rank`-th extra item of an array opened with `opening`. */
export function extraOpening(opening: Opening, rank: number): Opening {
  return { role: "extra", tier: Math.max(3, opening.tier), rank: opening.tier > 3 ? opening.rank : rank, item: true };
}
