import { AppError } from "@loupe/errors";

const PREFIX = "lc1.";

/** The cursor after an entry id: opaque to callers. */
export function encodeCursor(id: string): string {
  return PREFIX + Buffer.from(id, "utf8").toString("base64url");
}

/**
 * The entry id a cursor continues after.
 * @throws AppError `invalid_argument` for a cursor not made by {@link encodeCursor}
 */
export function decodeCursor(cursor: string): string {
  const id = cursor.startsWith(PREFIX) ? Buffer.from(cursor.slice(PREFIX.length), "base64url").toString("utf8") : "";
  if (!/^\d{1,16}-\d{1,16}$/.test(id)) throw new AppError("invalid_argument", "cursor is not a ledger cursor of this Loupe");
  return id;
}

/** Orders entry ids `<ms>-<seq>` (as Redis stream ids): negative when `a` is older. */
export function compareIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split("-").map(Number);
  const [bMs = 0, bSeq = 0] = b.split("-").map(Number);
  return aMs - bMs || aSeq - bSeq;
}
