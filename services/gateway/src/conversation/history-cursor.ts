import { AppError } from "@loupe/errors";

/** Where a ReadHistory continues: turn `seq`, from character `offset` of its text, through `endSeq` (0 = the last). */
export interface HistoryCursor {
  sessionId: string;
  seq: number;
  offset: number;
  endSeq: number;
}

const VERSION = "h1";

/** An opaque, self-contained cursor (any gateway replica can serve it). */
export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return Buffer.from(JSON.stringify({ v: VERSION, s: cursor.sessionId, n: cursor.seq, o: cursor.offset, e: cursor.endSeq })).toString("base64url");
}

/** @throws AppError `invalid_argument` for a malformed cursor or one of another session */
export function decodeHistoryCursor(cursor: string, sessionId: string): HistoryCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new AppError("invalid_argument", "malformed history cursor");
  }
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const { v, s, n, o, e } = record;
  const whole = (x: unknown, min: number): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= min;
  if (v !== VERSION || typeof s !== "string" || !whole(n, 1) || !whole(o, 0) || !whole(e, 0)) throw new AppError("invalid_argument", "malformed history cursor");
  if (s !== sessionId) throw new AppError("invalid_argument", "history cursor belongs to another session");
  return { sessionId: s, seq: n, offset: o, endSeq: e };
}
