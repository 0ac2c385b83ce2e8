import { formatNumber } from "../format-number.js";

/*
 * Markers in JSON views. A cut JSON view is valid JSON in the original's
 * shape; whatever it leaves out is replaced by a marker object whose first
 * member is "$loupe" (a string) and whose "recover" member is the Recover
 * request for it (null when nothing was saved):
 *   a whole value (string, array or object) at its place:
 *     {"$loupe":"omitted","type":"string","chars":12345,"recover":{"result_id":"r_…","json_pointer":"/items/3/body"}}
 *     {"$loupe":"omitted","type":"array","items":250,"recover":{…}}     {"$loupe":"omitted","type":"object","keys":12,"recover":{…}}
 *   a run of array items, as one element in the items' place (no "type"):
 *     {"$loupe":"omitted","items":80,"recover":{"result_id":"r_…","json_pointer":"/items","item_start":10,"item_end":90}}
 *   the members an object view leaves out, as its last member (recover names the whole object):
 *     "$loupe":{"$loupe":"omitted","keys":23,"recover":{"result_id":"r_…","json_pointer":"/items/5"}}
 * "chars" counts code points. Item ranges are 0-based, end exclusive. A data
 * object that itself has a "$loupe" member is never shown as it is but as a
 * whole-object marker, so an object with a "$loupe" member in a cut view is
 * always Loupe's.
 */

/** One part of a structured result a view left out, addressed by JSON pointer. */
export interface StructuredOmission {
  /** One line a model reads. */
  description: string;
  /** Sent as it is to Recover, returns the omitted part (see {@link jsonContinuation}); "" when nothing was saved. */
  continuationJson: string;
  /** RFC 6901 pointer into the original value ("" is the whole value). */
  jsonPointer: string;
  /** For a run of array items: 0-based first item. */
  itemStart?: number;
  /** For a run of array items: 0-based, exclusive. */
  itemEnd?: number;
}

/** A first view of a structured result. */
export interface StructuredView {
  text: string;
  omissions: StructuredOmission[];
  /** True when the value already fit and comes back whole (compact JSON). */
  unchanged: boolean;
}

/** What a marker stands for: a whole value, a run of array items, or the members an object view left out. */
export type OmittedPart =
  | { what: "value"; type: "string"; chars: number }
  | { what: "value"; type: "array"; items: number }
  | { what: "value"; type: "object"; keys: number }
  | { what: "items"; start: number; end: number; total: number }
  | { what: "keys"; hidden: number; total: number };

/** Member name that marks Loupe's own objects in a JSON view. */
export const MARKER_KEY = "$loupe";

/**
 * The Recover arguments for the value at `pointer` (and items
 * [itemStart, itemEnd) when it is an array run), as JSON text with the
 * proto's field names; "" when `resultId` is "" (nothing was saved).
 */
export function jsonContinuation(resultId: string, pointer: string, itemStart?: number, itemEnd?: number): string {
  if (resultId === "") return "";
  const range = itemStart === undefined || itemEnd === undefined ? "" : `,"item_start":${String(itemStart)},"item_end":${String(itemEnd)}`;
  return `{"result_id":${JSON.stringify(resultId)},"json_pointer":${JSON.stringify(pointer)}${range}}`;
}

function facts(part: OmittedPart): string {
  switch (part.what) {
    case "value":
      if (part.type === "string") return `"type":"string","chars":${String(part.chars)}`;
      return part.type === "array" ? `"type":"array","items":${String(part.items)}` : `"type":"object","keys":${String(part.keys)}`;
    case "items":
      return `"items":${String(part.end - part.start)}`;
    case "keys":
      return `"keys":${String(part.hidden)}`;
  }
}

/**
 * The marker object that stands for an omitted part inside a JSON view:
 * `{"$loupe":"omitted",<facts>,"recover":<continuation or null>}`.
 */
export function markerText(part: OmittedPart, continuation: string): string {
  return `{"${MARKER_KEY}":"omitted",${facts(part)},"recover":${continuation === "" ? "null" : continuation}}`;
}

function where(pointer: string): string {
  return pointer === "" ? "the root" : JSON.stringify(pointer);
}

function subject(part: OmittedPart, pointer: string): string {
  switch (part.what) {
    case "value": {
      const size =
        part.type === "string"
          ? `${formatNumber(part.chars)} chars`
          : part.type === "array"
            ? `${formatNumber(part.items)} items`
            : `${formatNumber(part.keys)} keys`;
      return `${where(pointer)} (${part.type}, ${size})`;
    }
    case "items": {
      const range = part.end - part.start === 1 ? `item ${formatNumber(part.start)}` : `items ${formatNumber(part.start)}–${formatNumber(part.end - 1)}`;
      return `${range} of ${where(pointer)} (${formatNumber(part.total)} items, 0-based)`;
    }
    case "keys":
      return `${formatNumber(part.hidden)} of ${formatNumber(part.total)} keys of ${where(pointer)}`;
  }
}

/** The omission record (description and continuation) for one omitted part at `pointer`. */
export function omissionFor(part: OmittedPart, pointer: string, resultId: string): StructuredOmission {
  const range = part.what === "items" ? { itemStart: part.start, itemEnd: part.end } : {};
  const continuation = jsonContinuation(resultId, pointer, range.itemStart, range.itemEnd);
  const how =
    continuation === ""
      ? "the full result could not be saved"
      : part.what === "keys"
        ? `recover the object with ${continuation}`
        : `recover with ${continuation}`;
  return { description: `[loupe] ${subject(part, pointer)} omitted; ${how}`, continuationJson: continuation, jsonPointer: pointer, ...range };
}
