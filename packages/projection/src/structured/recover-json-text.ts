import { AppError } from "@loupe/errors";
import { resolveJsonPointer } from "./json-pointer.js";

/** What a json_pointer continuation asks Recover for. */
export interface JsonSelection {
  /** RFC 6901 pointer ("" is the whole value). */
  jsonPointer: string;
  /** 0-based first item of an array run. */
  itemStart?: number;
  /** 0-based end of an array run, exclusive; past the end means "to the end". */
  itemEnd?: number;
}

function lines(open: string, elements: string[], close: string): string {
  return elements.length === 0 ? open + close : `${open}\n${elements.join(",\n")}\n${close}`;
}

/**
 * The text Recover serves for a json_pointer continuation, before paging:
 * a string is served as its own text (not JSON-quoted), so it reads as the
 * tool wrote it; an array or an item run as a JSON array with one compact
 * item per line; an object as a JSON object with one compact member per
 * line; anything else as its JSON. Line breaks between items let Recover page
 * by whole items (whole lines). Pure.
 *
 * @throws AppError not_found when the pointer names nothing in `value`
 * @throws AppError invalid_argument when the pointer is malformed, or an item
 *   range is given for something that is not an array, or start > end
 */
export function recoverJsonText(value: unknown, selection: JsonSelection): string {
  const target = resolveJsonPointer(value, selection.jsonPointer);
  if (!target.found) throw new AppError("not_found", `json pointer not found in the result [pointer=${JSON.stringify(selection.jsonPointer)}]`);
  const found = target.value;
  const ranged = selection.itemStart !== undefined || selection.itemEnd !== undefined;
  if (Array.isArray(found)) {
    const start = selection.itemStart ?? 0;
    const end = Math.min(selection.itemEnd ?? found.length, found.length);
    if (start > end && start <= found.length)
      throw new AppError("invalid_argument", `item_start is after item_end [item_start=${String(start)}, item_end=${String(end)}]`);
    if (start > found.length)
      throw new AppError("invalid_argument", `item_start is past the end of the array [item_start=${String(start)}, items=${String(found.length)}]`);
    return lines(
      "[",
      found.slice(start, end).map((item) => JSON.stringify(item) ?? "null"),
      "]",
    );
  }
  if (ranged) throw new AppError("invalid_argument", `item range given for a value that is not an array [pointer=${JSON.stringify(selection.jsonPointer)}]`);
  if (typeof found === "string") return found;
  if (typeof found === "object" && found !== null) {
    return lines(
      "{",
      Object.entries(found).map(([key, member]) => `${JSON.stringify(key)}:${JSON.stringify(member) ?? "null"}`),
      "}",
    );
  }
  return JSON.stringify(found) ?? "null";
}
