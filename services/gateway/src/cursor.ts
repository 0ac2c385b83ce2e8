import { AppError } from "@loupe/errors";

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
  json?: { pointer: string; itemStart?: number; itemEnd?: number; offset: number };
}

interface WireCursor {
  v: 1;
  t: string;
  r: string;
  h: string;
  s: number;
  e: number;
  l: number;
  a: boolean;
  j?: { p: string; s?: number; e?: number; o: number };
}

/** Encodes a cursor as opaque base64url text. */
export function encodeCursor(state: CursorState): string {
  const wire: WireCursor = { v: 1, t: state.tenant, r: state.resultId, h: state.revision, s: state.startByte, e: state.endByte, l: state.line, a: state.atLineStart };
  if (state.json) {
    wire.j = { p: state.json.pointer, o: state.json.offset };
    if (state.json.itemStart !== undefined) wire.j.s = state.json.itemStart;
    if (state.json.itemEnd !== undefined) wire.j.e = state.json.itemEnd;
  }
  return Buffer.from(JSON.stringify(wire)).toString("base64url");
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * Decodes a cursor and checks it belongs to `tenant` (and to `resultId` when given).
 * @throws AppError `invalid_argument` for a malformed cursor or one of another result
 */
export function decodeCursor(cursor: string, tenant: string, resultId: string): CursorState {
  let wire: Partial<WireCursor>;
  try {
    wire = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<WireCursor>;
  } catch {
    // The cause (a JSON syntax error on decoded garbage) would only confuse the caller.
    throw new AppError("invalid_argument", "malformed cursor");
  }
  if (wire.v !== 1 || typeof wire.t !== "string" || typeof wire.r !== "string" || typeof wire.h !== "string" || !isCount(wire.s) || !isCount(wire.e) || !isCount(wire.l) || typeof wire.a !== "boolean" || wire.s > wire.e) {
    throw new AppError("invalid_argument", "malformed cursor");
  }
  if (wire.t !== tenant || (resultId !== "" && wire.r !== resultId)) {
    throw new AppError("invalid_argument", `cursor belongs to another result [result_id=${resultId}]`);
  }
  const state: CursorState = { tenant: wire.t, resultId: wire.r, revision: wire.h, startByte: wire.s, endByte: wire.e, line: wire.l, atLineStart: wire.a };
  if (wire.j !== undefined) {
    const json = wire.j;
    if (typeof json.p !== "string" || !isCount(json.o) || (json.s !== undefined && !isCount(json.s)) || (json.e !== undefined && !isCount(json.e))) {
      throw new AppError("invalid_argument", "malformed cursor");
    }
    state.json = { pointer: json.p, offset: json.o, ...(json.s === undefined ? {} : { itemStart: json.s }), ...(json.e === undefined ? {} : { itemEnd: json.e }) };
  }
  return state;
}
