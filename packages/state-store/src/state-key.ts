import { AppError } from "@loupe/errors";

/** The namespace every state key starts with. */
export const STATE_KEY_NAMESPACE = "loupe";

const SEPARATOR = ":";
// Kept as they are: letters, digits and `-_.~`. Everything else (":", "*", "?", "[", "]",
// whitespace, "%", non-ASCII) becomes %XX per UTF-8 byte, so a segment never contains the
// separator or a Redis glob character, and "%" itself is escaped (the encoding is injective).
const PLAIN_BYTE = /^[A-Za-z0-9\-_.~]$/;
const LONE_SURROGATE = /\p{Cs}/u;
const encoder = new TextEncoder();

/**
 * Builds the Redis-style key `loupe:<tenant>:<entity>:<id>…`. Every segment is encoded
 * (bytes outside `A-Za-z0-9-_.~` as uppercase `%XX`), so no `:`, `*` or whitespace from input
 * survives; the result is deterministic and injective, and `parseStateKey` reverses it.
 * Empty segments are allowed and stay empty.
 *
 * @throws AppError `invalid_argument` when a segment contains a lone UTF-16 surrogate
 * (it has no UTF-8 form, so the encoding could not be reversed).
 */
export function stateKey(tenant: string, entity: string, ...ids: string[]): string {
  return [STATE_KEY_NAMESPACE, ...[tenant, entity, ...ids].map(encodeSegment)].join(SEPARATOR);
}

/**
 * The prefix shared by every `stateKey(tenant, ...segments, …)` with these leading segments,
 * ending with the separator: `stateKeyPrefix("t", "notes")` matches `stateKey("t", "notes", x)`
 * for every `x` but not `stateKey("t", "notes2", x)`. For `StateStore.deletePrefix`.
 *
 * @throws AppError `invalid_argument` as `stateKey`
 */
export function stateKeyPrefix(tenant: string, ...segments: string[]): string {
  return [STATE_KEY_NAMESPACE, encodeSegment(tenant), ...segments.map(encodeSegment)].join(SEPARATOR) + SEPARATOR;
}

/** The parts of a key built by `stateKey`. */
export interface ParsedStateKey {
  tenant: string;
  entity: string;
  ids: string[];
}

/**
 * Reverses `stateKey`.
 *
 * @throws AppError `invalid_argument` when `key` is not exactly what `stateKey` builds
 * (other namespace, fewer than two segments, non-canonical escapes)
 */
export function parseStateKey(key: string): ParsedStateKey {
  const [namespace, ...encoded] = key.split(SEPARATOR);
  if (namespace !== STATE_KEY_NAMESPACE || encoded.length < 2) {
    throw new AppError("invalid_argument", `not a state key [key=${JSON.stringify(key)}]`);
  }
  const segments = encoded.map((segment) => decodeSegment(segment, key));
  const [tenant = "", entity = "", ...ids] = segments;
  return { tenant, entity, ids };
}

function encodeSegment(segment: string): string {
  if (LONE_SURROGATE.test(segment)) {
    throw new AppError("invalid_argument", "state key segment is not well-formed unicode");
  }
  let out = "";
  for (const char of segment) {
    if (PLAIN_BYTE.test(char)) {
      out += char;
      continue;
    }
    for (const byte of encoder.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function decodeSegment(segment: string, key: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch (error) {
    throw new AppError("invalid_argument", `not a state key [key=${JSON.stringify(key)}]`, { cause: error });
  }
  // Only the canonical form is accepted, so parse and build are exact inverses.
  if (encodeSegment(decoded) !== segment) {
    throw new AppError("invalid_argument", `not a state key [key=${JSON.stringify(key)}]`);
  }
  return decoded;
}
