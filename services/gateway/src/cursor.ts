import { AppError } from "@loupe/errors";
import { readCursor, writeCursor } from "./opaque-cursor.js";

/** What a Recover cursor carries: everything needed to continue, on any replica. */
export interface CursorState {
  tenant: string;
  resultId: string;
  revision: string;
  /** Next byte to serve and where the requested range ends (0-based, end exclusive). */
  startByte: number;
  endByte: number;
  /** The 1-based line that startByte falls in; 0 when unknown. */
  line: number;
  /** True when startByte is the first byte of `line`. */
  atLineStart: boolean;
  /** For a JSON-pointer recovery: what is served, and how many characters of its text were served already. */
  json?: JsonCursor;
}

/** Where a JSON-pointer recovery goes on: the pointer, the item range, the characters served, and the field view (with its definition's digest) it serves. */
export interface JsonCursor {
  pointer: string;
  itemStart?: number;
  itemEnd?: number;
  offset: number;
  view?: string;
  viewDigest?: string;
}

interface WireCursor {
  t: string;
  r: string;
  h: string;
  s: number;
  e: number;
  l: number;
  a: boolean;
  j?: { p: string; s?: number; e?: number; o: number; v?: string; d?: string };
}

/** Encodes a range cursor in the one cursor format (see writeCursor). */
export function encodeCursor(state: CursorState): string {
  const wire: WireCursor = { t: state.tenant, r: state.resultId, h: state.revision, s: state.startByte, e: state.endByte, l: state.line, a: state.atLineStart };
  if (state.json) {
    wire.j = { p: state.json.pointer, o: state.json.offset };
    if (state.json.itemStart !== undefined) wire.j.s = state.json.itemStart;
    if (state.json.itemEnd !== undefined) wire.j.e = state.json.itemEnd;
    if (state.json.view !== undefined) wire.j.v = state.json.view;
    if (state.json.viewDigest !== undefined) wire.j.d = state.json.viewDigest;
  }
  return writeCursor("range", { ...wire });
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * Decodes a cursor and checks it belongs to `tenant` (and to `resultId` when given).
 * @throws AppError `invalid_argument` for a malformed cursor or one of another result
 */
export function decodeCursor(cursor: string, tenant: string, resultId: string): CursorState {
  const wire = readCursor(cursor, "range") as Partial<WireCursor>;
  if (
    typeof wire.t !== "string" ||
    typeof wire.r !== "string" ||
    typeof wire.h !== "string" ||
    !isCount(wire.s) ||
    !isCount(wire.e) ||
    !isCount(wire.l) ||
    typeof wire.a !== "boolean" ||
    wire.s > wire.e
  ) {
    throw new AppError("invalid_argument", "malformed cursor");
  }
  if (wire.t !== tenant || (resultId !== "" && wire.r !== resultId)) {
    throw new AppError("invalid_argument", `cursor belongs to another result [result_id=${resultId}]`);
  }
  const state: CursorState = { tenant: wire.t, resultId: wire.r, revision: wire.h, startByte: wire.s, endByte: wire.e, line: wire.l, atLineStart: wire.a };
  if (wire.j !== undefined) {
    const json = wire.j;
    const optionalString = (value: unknown): boolean => value === undefined || typeof value === "string";
    if (
      typeof json.p !== "string" ||
      !isCount(json.o) ||
      (json.s !== undefined && !isCount(json.s)) ||
      (json.e !== undefined && !isCount(json.e)) ||
      !optionalString(json.v) ||
      !optionalString(json.d)
    ) {
      throw new AppError("invalid_argument", "malformed cursor");
    }
    state.json = {
      pointer: json.p,
      offset: json.o,
      ...(json.s === undefined ? {} : { itemStart: json.s }),
      ...(json.e === undefined ? {} : { itemEnd: json.e }),
      ...(json.v === undefined ? {} : { view: json.v }),
      ...(json.d === undefined ? {} : { viewDigest: json.d }),
    };
  }
  return state;
}
