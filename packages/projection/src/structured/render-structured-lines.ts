import { compactJsonWithin } from "./compact-json-within.js";
import { hasFailureSignal, isFailureMember, isIdentityKey } from "./field-classes.js";

/** The part of the value a rendered line shows: the value at `path`, or items [from, to) of the array at `path`. */
export interface LineOwner {
  path: readonly string[];
  from?: number;
  to?: number;
}

/** One rendered line ("\n" included), what it shows, and how many characters of the value it shows. */
export interface TextLine {
  text: string;
  owner: LineOwner;
  content: number;
  /** A line standing for what was not rendered (never kept in a view). */
  placeholder: boolean;
}

/** An array item's section (header line with its identity, then its body) or a member of the root object. */
export interface TextSection {
  start: number;
  end: number;
  kind: "first" | "last" | "failed" | "other" | "member";
  /** An item of the root array or of an array that is a member of the root object (the result's main list). */
  top: boolean;
}

/** Lines and sections of a value rendered as text. */
export interface StructuredLines {
  lines: TextLine[];
  sections: TextSection[];
}

const INLINE_JSON_CHARS = 160;
const SUMMARY_VALUE_CHARS = 80;
const MAX_FAILED_PAST_LIMIT = 10;
const MAX_SCANNED_ITEMS = 20_000;

/** An array being rendered: its items, where it is, and whether it is the result's main list. */
interface ItemList {
  items: readonly unknown[];
  path: string[];
  indent: string;
  depth: number;
  top: boolean;
}

function scalarText(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

function isMultiline(value: unknown): value is string {
  return typeof value === "string" && (value.includes("\n") || value.length > INLINE_JSON_CHARS);
}

/**
 * Renders a parsed JSON value as readable text, one section per array item
 * (a header line with the item's identity members, then its other members)
 * and per member of a root object. Multi-line strings become indented blocks
 * of their lines ("key: |"); small containers stay compact JSON on one line.
 * Stops rendering after about `limitBytes` bytes: what is left is named by
 * placeholder lines. Pure and deterministic.
 */
export function renderStructuredLines(value: unknown, limitBytes: number): StructuredLines {
  const lines: TextLine[] = [];
  const sections: TextSection[] = [];
  let bytes = 0;
  const emit = (text: string, owner: LineOwner, content: number, placeholder = false): void => {
    lines.push({ text: `${text}\n`, owner, content, placeholder });
    bytes += text.length + 1;
  };
  const compact = (child: unknown): string | undefined =>
    typeof child === "object" && child !== null ? compactJsonWithin(child, INLINE_JSON_CHARS) : undefined;
  const block = (text: string, path: string[], indent: string): void => {
    const parts = text.split("\n");
    for (const [index, line] of parts.entries()) {
      if (bytes > limitBytes) {
        emit(`[loupe] lines ${String(index + 1)}–${String(parts.length)} of this string not rendered`, { path }, 0, true);
        return;
      }
      emit(`${indent}${line.replace(/\r$/, "")}`, { path }, line.length);
    }
  };

  const renderValue = (child: unknown, path: string[], indent: string, label: string, depth: number): void => {
    if (isMultiline(child)) {
      emit(`${indent}${label}: |`, { path }, 0);
      block(child, path, `${indent}  `);
      return;
    }
    if (typeof child !== "object" || child === null) {
      const text = scalarText(child);
      emit(`${indent}${label}: ${text}`, { path }, text.length);
      return;
    }
    const small = compact(child);
    if (small !== undefined) {
      emit(`${indent}${label}: ${small}`, { path }, small.length);
      return;
    }
    if (Array.isArray(child)) {
      emit(`${indent}${label}: (${String(child.length)} items)`, { path }, 0);
      renderItems(child, path, `${indent}  `, depth + 1, path.length === 1);
    } else {
      emit(`${indent}${label}:`, { path }, 0);
      renderMembers(child as Record<string, unknown>, path, `${indent}  `, depth + 1, new Set());
    }
  };

  const renderMembers = (record: Record<string, unknown>, path: string[], indent: string, depth: number, skip: ReadonlySet<string>): void => {
    const keys = Object.keys(record);
    for (const [index, key] of keys.entries()) {
      if (skip.has(key)) continue;
      if (bytes > limitBytes) {
        emit(`[loupe] ${String(keys.length - index)} more members not rendered`, { path }, 0, true);
        return;
      }
      renderValue(record[key], [...path, key], indent, key, depth);
    }
  };

  const renderItem = (list: ItemList, item: unknown, index: number, failed: boolean): void => {
    const { path, indent, depth } = list;
    const start = lines.length;
    const itemPath = [...path, String(index)];
    const bullet = depth === 0 ? `## [${String(index)}]` : `${indent}- [${String(index)}]`;
    if (typeof item === "object" && item !== null && !Array.isArray(item) && compact(item) === undefined) {
      const record = item as Record<string, unknown>;
      const summary = Object.keys(record).filter((key) => {
        const member = record[key];
        return (
          (isIdentityKey(key) || isFailureMember(key, member)) &&
          (typeof member !== "object" || member === null) &&
          scalarText(member).length <= SUMMARY_VALUE_CHARS
        );
      });
      const header = summary.map((key) => `${key}: ${scalarText(record[key])}`).join(" · ");
      emit(header === "" ? bullet : `${bullet} ${header}`, { path: itemPath }, header.length);
      renderMembers(record, itemPath, depth === 0 ? "" : `${indent}  `, depth + 1, new Set(summary));
    } else renderValue(item, itemPath, depth === 0 ? "" : indent, bullet.trimStart(), depth);
    const kind = index === 0 ? "first" : failed ? "failed" : index === list.items.length - 1 ? "last" : "other";
    sections.push({ start, end: lines.length, kind, top: list.top });
  };

  // Past the byte limit only the last item and up to MAX_FAILED_PAST_LIMIT failed items are still rendered.
  const renderItems = (items: readonly unknown[], path: string[], indent: string, depth: number, top: boolean): void => {
    const list: ItemList = { items, path, indent, depth, top };
    let skipped: number | undefined;
    let failedPastLimit = 0;
    const flush = (end: number): void => {
      if (skipped === undefined) return;
      emit(`[loupe] items ${String(skipped)}–${String(end - 1)} not rendered`, { path, from: skipped, to: end }, 0, true);
      skipped = undefined;
    };
    for (const [index, item] of items.entries()) {
      const over = bytes > limitBytes;
      const failed = (!over || index < MAX_SCANNED_ITEMS) && typeof item === "object" && item !== null && hasFailureSignal(item);
      if (over && index !== items.length - 1 && !(failed && failedPastLimit < MAX_FAILED_PAST_LIMIT)) {
        skipped ??= index;
        continue;
      }
      if (over && failed) failedPastLimit++;
      flush(index);
      renderItem(list, item, index, failed);
    }
    flush(items.length);
  };

  if (Array.isArray(value)) renderItems(value, [], "", 0, true);
  else if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    for (const [index, key] of keys.entries()) {
      if (bytes > limitBytes) {
        emit(`[loupe] ${String(keys.length - index)} more members not rendered`, { path: [] }, 0, true);
        break;
      }
      const start = lines.length;
      renderValue(record[key], [key], "", `## ${key}`, 0);
      sections.push({ start, end: lines.length, kind: "member", top: true });
    }
  } else if (typeof value === "string") block(value, [], "");
  else emit(scalarText(value), { path: [] }, scalarText(value).length);
  return { lines, sections };
}
