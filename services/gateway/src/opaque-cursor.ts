import { AppError } from "@loupe/errors";

/** What a cursor continues: a byte or JSON range of a result, a pattern search of a result, or a read of a session's turns. */
export type CursorKind = "range" | "pattern" | "history";

const VERSION = 2;
// Cursors handed out before the one format: each kind had its own version tag.
const LEGACY: Readonly<Record<string, CursorKind>> = { "1": "range", p1: "pattern", h1: "history" };

/**
 * The one cursor format of every continuation Loupe hands out (Recover by range, JSON pointer or
 * pattern; ReadHistory): opaque base64url JSON `{ v: 2, k: kind, …fields }`, self-contained so
 * any gateway replica serves it. Each kind's module binds its fields (tenant, result, revision,
 * or session) and checks them on the way back.
 */
export function writeCursor(kind: CursorKind, fields: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ v: VERSION, k: kind, ...fields })).toString("base64url");
}

/**
 * Reads a cursor of `kind`: its fields, or an error naming `label`. Cursors of the earlier formats
 * (`v: 1` ranges, `v: "p1"` patterns, `v: "h1"` history reads) keep working.
 * @throws AppError `invalid_argument` for a malformed cursor or one of another kind
 */
export function readCursor(cursor: string, kind: CursorKind, label = "cursor"): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    // The JSON syntax error of decoded garbage would only confuse the caller.
    throw new AppError("invalid_argument", `malformed ${label}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new AppError("invalid_argument", `malformed ${label}`);
  const fields = value as Record<string, unknown>;
  const found = fields["v"] === VERSION ? fields["k"] : LEGACY[String(fields["v"])];
  if (found !== kind) throw new AppError("invalid_argument", `malformed ${label}`);
  return fields;
}

/** The kind of a cursor, or undefined when it is none of Loupe's. */
export function cursorKind(cursor: string): CursorKind | undefined {
  try {
    const fields = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
    const kind = fields["v"] === VERSION ? fields["k"] : LEGACY[String(fields["v"])];
    return kind === "range" || kind === "pattern" || kind === "history" ? kind : undefined;
  } catch {
    // Not JSON: not one of Loupe's cursors.
    return undefined;
  }
}
