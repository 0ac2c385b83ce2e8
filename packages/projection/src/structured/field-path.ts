import { isAppError } from "@loupe/errors";
import { parseJsonPointer } from "./json-pointer.js";

/**
 * One step of a field path: a member by name, an array item by index (a
 * pointer's numeric token also matches a member of that name), every member
 * or item (`*`), or every array item (`[]`).
 */
export type PathSegment = { kind: "key"; key: string } | { kind: "index"; index: number; key?: string } | { kind: "any" } | { kind: "items" };

/** A path that parsed, or why it did not. */
export type ParsedPath = { segments: PathSegment[] } | { error: string };

const DOTTED_PART = /^([^.[\]]*)((?:\[\d*\])*)$/;

function parseDotted(path: string): ParsedPath {
  const segments: PathSegment[] = [];
  for (const part of path.split(".")) {
    const match = DOTTED_PART.exec(part);
    if (match === null) return { error: `"${part}" is not a name followed by [] or [n]` };
    const [, name = "", brackets = ""] = match;
    if (name === "" && (brackets === "" || segments.length > 0)) return { error: "empty name (use a JSON pointer for keys with dots or brackets)" };
    if (name === "*") segments.push({ kind: "any" });
    else if (name !== "") segments.push({ kind: "key", key: name });
    for (const bracket of brackets.match(/\[\d*\]/g) ?? []) {
      const digits = bracket.slice(1, -1);
      segments.push(digits === "" ? { kind: "items" } : { kind: "index", index: Number(digits) });
    }
  }
  return { segments };
}

/**
 * Parses a field path: an RFC 6901 JSON pointer ("/items/0/title": exact
 * members; a canonical number token matches an array index or a member of
 * that name), or a dotted path ("items[].labels[].name", "[].id" for a root
 * array, "*.id" for every member, "items[3].title"). Never throws.
 */
export function parseFieldPath(path: string): ParsedPath {
  if (path === "") return { error: "empty path" };
  if (path.startsWith("/")) {
    try {
      const segments: PathSegment[] = parseJsonPointer(path).map((token) =>
        /^(0|[1-9][0-9]*)$/.test(token) ? { kind: "index", index: Number(token), key: token } : { kind: "key", key: token },
      );
      return { segments };
    } catch (error) {
      if (isAppError(error)) return { error: error.message };
      throw error;
    }
  }
  return parseDotted(path);
}
