import { AppError } from "@loupe/errors";

const KEPT = /^[A-Za-z0-9-]$/;
const ALL_KEPT = /^[A-Za-z0-9-]+$/;
const EMPTY_SEGMENT = "_";
const HEX = "0123456789ABCDEF";

/**
 * Encodes an id (tenant, result id, …) into one segment of an S3 key, NATS subject or Redis key.
 *
 * `A–Z a–z 0–9 -` are kept; every other code point becomes `_XX` per UTF-8 byte (uppercase hex), so no `.`,
 * `*`, `>`, `/`, `:` or space survives. A lone surrogate (not UTF-8 encodable) becomes `_uXXXX`. The empty
 * string becomes `_`. The encoding is deterministic and injective: {@link decodeKeySegment} reverses it.
 * An encoded segment matches `[A-Za-z0-9_-]+`.
 */
export function encodeKeySegment(segment: string): string {
  if (segment.length === 0) return EMPTY_SEGMENT;
  // The usual id (a tenant, a session) is kept whole: no string built character by character.
  if (ALL_KEPT.test(segment)) return segment;
  let encoded = "";
  for (const character of segment) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (KEPT.test(character)) encoded += character;
    else if (codePoint >= 0xd800 && codePoint <= 0xdfff) encoded += `_u${codePoint.toString(16).toUpperCase()}`;
    else for (const byte of Buffer.from(character, "utf8")) encoded += `_${HEX[byte >> 4] ?? ""}${HEX[byte & 15] ?? ""}`;
  }
  return encoded;
}

/**
 * Reverses {@link encodeKeySegment}.
 *
 * @throws AppError `invalid_argument` when `encoded` is not the output of encodeKeySegment.
 */
export function decodeKeySegment(encoded: string): string {
  if (encoded === EMPTY_SEGMENT) return "";
  let decoded = "";
  let bytes: number[] = [];
  const flush = (): void => {
    if (bytes.length === 0) return;
    decoded += new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
    bytes = [];
  };
  try {
    for (let index = 0; index < encoded.length;) {
      const character = encoded[index] ?? "";
      if (character !== "_") {
        if (!KEPT.test(character)) throw new Error("unexpected character");
        flush();
        decoded += character;
        index += 1;
      } else if (encoded[index + 1] === "u") {
        flush();
        decoded += String.fromCharCode(parseHex(encoded.slice(index + 2, index + 6), 4));
        index += 6;
      } else {
        bytes.push(parseHex(encoded.slice(index + 1, index + 3), 2));
        index += 3;
      }
    }
    flush();
  } catch (error) {
    throw new AppError("invalid_argument", `invalid encoded key segment [segment=${JSON.stringify(encoded)}]`, {
      cause: error,
    });
  }
  if (encodeKeySegment(decoded) !== encoded) {
    throw new AppError("invalid_argument", `invalid encoded key segment [segment=${JSON.stringify(encoded)}]`);
  }
  return decoded;
}

function parseHex(text: string, length: number): number {
  if (text.length !== length || !/^[0-9A-F]+$/.test(text)) throw new Error("bad escape");
  return Number.parseInt(text, 16);
}
