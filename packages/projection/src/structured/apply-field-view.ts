import { hasFailureSignal, isProtectedKey } from "./field-classes.js";
import { parseFieldPath, type PathSegment } from "./field-path.js";
import type { FieldView } from "./view-spec.js";

interface Trie {
  end: boolean;
  keys: Map<string, Trie>;
  indexes: Map<number, Trie>;
  /** A pointer's number tokens: an array index, or a member of that name. */
  numbers: Map<string, Trie>;
  any?: Trie;
  items?: Trie;
}

function createTrie(): Trie {
  return { end: false, keys: new Map(), indexes: new Map(), numbers: new Map() };
}

function childOf<K>(map: Map<K, Trie>, key: K): Trie {
  const existing = map.get(key);
  if (existing) return existing;
  const created = createTrie();
  map.set(key, created);
  return created;
}

function insert(trie: Trie, segments: readonly PathSegment[]): void {
  let node = trie;
  for (const segment of segments) {
    if (segment.kind === "key") node = childOf(node.keys, segment.key);
    else if (segment.kind === "index") node = segment.key === undefined ? childOf(node.indexes, segment.index) : childOf(node.numbers, segment.key);
    else if (segment.kind === "any") node = node.any ??= createTrie();
    else node = node.items ??= createTrie();
  }
  node.end = true;
}

function compile(paths: readonly string[]): Trie {
  const trie = createTrie();
  for (const path of paths) {
    const parsed = parseFieldPath(path);
    if ("segments" in parsed) insert(trie, parsed.segments);
  }
  return trie;
}

// The trie nodes reached from `states` by member `key` of an object or item `index` of an array.
function advance(states: readonly Trie[], step: { key: string } | { index: number }): Trie[] {
  const next: Trie[] = [];
  for (const state of states) {
    const byNumber = state.numbers.get("key" in step ? step.key : String(step.index));
    if (byNumber) next.push(byNumber);
    if ("key" in step) {
      const byKey = state.keys.get(step.key);
      if (byKey) next.push(byKey);
    } else {
      const byIndex = state.indexes.get(step.index);
      if (byIndex) next.push(byIndex);
      if (state.items) next.push(state.items);
    }
    if (state.any) next.push(state.any);
  }
  return next;
}

/** The result of a field view: the value with only the kept fields, and the (generalized) paths of what was dropped. */
export interface FieldViewResult {
  value: unknown;
  /** Dotted paths with "[]" for array items ("items[].body"), each once, in first-seen order. */
  dropped: string[];
}

/**
 * Applies a field view to a parsed JSON value. Keeps each listed path whole
 * (and the containers on the way to it); in every object kept, identifiers,
 * qualifications and error/outcome fields are kept too (whole), listed or
 * not, and `drop` never removes them. A subtree not selected (or dropped)
 * that reports a failure is not dropped silently: it is kept as a skeleton of
 * its protected fields down to the failure, so a failure is never shown as a
 * success.
 * Explicit nulls stay null and absent fields stay absent; array items keep
 * their order (items a pointer path did not select are left out). Pure.
 */
export function applyFieldView(value: unknown, view: FieldView): FieldViewResult {
  const keep = compile(view.keep);
  const drop = compile(view.drop ?? []);
  const dropped = new Set<string>();
  const label = (path: string, step: { key: string } | { index: number }): string =>
    "key" in step ? (path === "" ? step.key : `${path}.${step.key}`) : `${path}[]`;

  const skeleton = (node: unknown, path: string): unknown => {
    if (typeof node !== "object" || node === null) return node;
    const entries = Array.isArray(node) ? node.map((item, index) => [index, item] as const) : Object.entries(node);
    const kept: Array<readonly [string | number, unknown]> = [];
    for (const [key, child] of entries) {
      const step = typeof key === "number" ? { index: key } : { key };
      if (typeof key === "string" && isProtectedKey(key)) kept.push([key, child]);
      else if (typeof child === "object" && child !== null && hasFailureSignal(child)) kept.push([key, skeleton(child, label(path, step))]);
      else dropped.add(label(path, step));
    }
    return Array.isArray(node) ? kept.map(([, child]) => child) : Object.fromEntries(kept);
  };

  const walk = (node: unknown, keeping: Trie[], dropping: Trie[], whole: boolean, path: string): unknown => {
    if (typeof node !== "object" || node === null) return node;
    const entries = Array.isArray(node) ? node.map((item, index) => [index, item] as const) : Object.entries(node);
    const kept: Array<readonly [string | number, unknown]> = [];
    for (const [key, child] of entries) {
      const step = typeof key === "number" ? { index: key } : { key };
      const childKeep = advance(keeping, step);
      const childDrop = advance(dropping, step);
      const isProtected = typeof key === "string" && isProtectedKey(key);
      const failing = (): boolean => typeof child === "object" && child !== null && hasFailureSignal(child);
      if (isProtected) kept.push([key, child]);
      else if (childDrop.some((state) => state.end)) {
        if (failing()) kept.push([key, skeleton(child, label(path, step))]);
        else dropped.add(label(path, step));
      } else if (whole || childKeep.length > 0)
        kept.push([key, walk(child, childKeep, childDrop, whole || childKeep.some((state) => state.end), label(path, step))]);
      else if (failing()) kept.push([key, skeleton(child, label(path, step))]);
      else dropped.add(label(path, step));
    }
    return Array.isArray(node) ? kept.map(([, child]) => child) : Object.fromEntries(kept);
  };

  const result = walk(value, [keep], [drop], keep.end, "");
  return { value: result, dropped: [...dropped] };
}
