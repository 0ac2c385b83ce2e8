import { AppError } from "@loupe/errors";
import { readCursor, writeCursor } from "../opaque-cursor.js";

/** Where a ReadHistory continues: turn `seq`, from character `offset` of its text, through `endSeq` (0 = the last). */
export interface HistoryCursor {
  sessionId: string;
  seq: number;
  offset: number;
  endSeq: number;
}

/** An opaque, self-contained cursor (any gateway replica can serve it), in the one cursor format. */
export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return writeCursor("history", { s: cursor.sessionId, n: cursor.seq, o: cursor.offset, e: cursor.endSeq });
}

/** @throws AppError `invalid_argument` for a malformed cursor or one of another session */
export function decodeHistoryCursor(cursor: string, sessionId: string): HistoryCursor {
  const { s, n, o, e } = readCursor(cursor, "history", "history cursor");
  const whole = (x: unknown, min: number): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= min;
  if (typeof s !== "string" || !whole(n, 1) || !whole(o, 0) || !whole(e, 0)) throw new AppError("invalid_argument", "malformed history cursor");
  if (s !== sessionId) throw new AppError("invalid_argument", "history cursor belongs to another session");
  return { sessionId: s, seq: n, offset: o, endSeq: e };
}
