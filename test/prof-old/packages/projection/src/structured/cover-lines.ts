import { escapePointerSegment } from "./json-pointer.js";
import type { TextLine } from "./render-structured-lines.js";

/** The smallest JSON part (a value, or a run of items of an array) that holds everything some rendered lines show. */
export interface LineCover {
  jsonPointer: string;
  itemStart?: number;
  itemEnd?: number;
}

function commonPrefix(a: readonly string[], b: readonly string[]): string[] {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return a.slice(0, length);
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * The JSON part covering lines [from, to) of a rendering: the deepest value
 * that every line's owner lies in, narrowed to a run of items when that value
 * is an array and every line shows one of its items (or a run of them).
 */
export function coverLines(lines: readonly TextLine[], from: number, to: number, value: unknown): LineCover {
  let prefix: string[] | undefined;
  for (let index = from; index < to; index++) {
    const path = lines[index]?.owner.path ?? [];
    prefix = prefix === undefined ? [...path] : commonPrefix(prefix, path);
  }
  const segments = prefix ?? [];
  const jsonPointer = segments.map((segment) => `/${escapePointerSegment(segment)}`).join("");
  if (!Array.isArray(valueAt(value, segments))) return { jsonPointer };
  let itemStart = Number.POSITIVE_INFINITY;
  let itemEnd = Number.NEGATIVE_INFINITY;
  for (let index = from; index < to; index++) {
    const owner = lines[index]?.owner;
    if (owner === undefined) continue;
    if (owner.path.length > segments.length) {
      const item = Number(owner.path[segments.length]);
      itemStart = Math.min(itemStart, item);
      itemEnd = Math.max(itemEnd, item + 1);
    } else if (owner.from !== undefined && owner.to !== undefined) {
      itemStart = Math.min(itemStart, owner.from);
      itemEnd = Math.max(itemEnd, owner.to);
    } else return { jsonPointer };
  }
  return Number.isFinite(itemStart) ? { jsonPointer, itemStart, itemEnd } : { jsonPointer };
}
