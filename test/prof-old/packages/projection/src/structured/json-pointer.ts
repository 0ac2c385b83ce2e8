import { AppError } from "@loupe/errors";

/** Escapes one reference token for a JSON pointer (RFC 6901: "~" → "~0", "/" → "~1"). */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The pointer to member or item `segment` of the value at `pointer` ("" is the whole document). */
export function appendPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${typeof segment === "number" ? String(segment) : escapePointerSegment(segment)}`;
}

/**
 * Splits an RFC 6901 pointer into its unescaped reference tokens: "" → [],
 * "/a~1b/0" → ["a/b", "0"].
 *
 * @throws AppError invalid_argument when the pointer does not start with "/"
 *   or has a "~" not followed by "0" or "1"
 */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new AppError("invalid_argument", `json pointer must be empty or start with "/" [pointer=${pointer}]`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      if (/~(?![01])/.test(token)) throw new AppError("invalid_argument", `json pointer has a bad "~" escape [pointer=${pointer}]`);
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
}

/** What {@link resolveJsonPointer} found. */
export type PointerTarget = { found: true; value: unknown } | { found: false };

/**
 * Resolves an RFC 6901 pointer against a parsed JSON value. Array tokens must
 * be canonical indexes ("0", "12"; not "01", "-" or "1e1"); object tokens
 * match own members only (so "__proto__" is a member like any other).
 *
 * @throws AppError invalid_argument when the pointer is malformed
 */
export function resolveJsonPointer(value: unknown, pointer: string): PointerTarget {
  let current = value;
  for (const token of parseJsonPointer(pointer)) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return { found: false };
      const index = Number(token);
      if (index >= current.length) return { found: false };
      current = current[index] as unknown;
    } else if (typeof current === "object" && current !== null) {
      if (!Object.prototype.hasOwnProperty.call(current, token)) return { found: false };
      current = (current as Record<string, unknown>)[token];
    } else return { found: false };
  }
  return { found: true, value: current };
}
