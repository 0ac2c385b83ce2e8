import { createHash } from "node:crypto";

/** One part of a tool result, as far as its revision is concerned. */
export type CanonicalPart = { text: string } | { json: string } | { media: unknown };

const SEPARATOR = new Uint8Array([0x0a]);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A result's canonical bytes: its text and json parts, in order, joined with `\n` between parts, as UTF-8
 * (a plain Uint8Array, not a Buffer). Media parts are left out (they add no separator). No parts, or only media, give empty bytes.
 */
export function canonicalBytes(parts: readonly CanonicalPart[]): Uint8Array {
  const encoded: Uint8Array[] = [];
  for (const text of textsOf(parts)) {
    if (encoded.length > 0) encoded.push(SEPARATOR);
    encoded.push(encoder.encode(text));
  }
  // One part (the usual result) is its own encoding: no second copy of a result that may be megabytes.
  if (encoded.length === 1 && encoded[0] !== undefined) return encoded[0];
  const joined = Buffer.concat(encoded);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}

/**
 * A result's canonical content: its bytes (see {@link canonicalBytes}) and the text they decode to — the
 * parts' own strings when they are canonical already ({@link canonicalTextOf}), so a result is not held
 * twice; decoded from the bytes otherwise (lone surrogates as U+FFFD, a leading byte-order mark dropped).
 */
export function canonicalContent(parts: readonly CanonicalPart[]): { bytes: Uint8Array; text: string } {
  const bytes = canonicalBytes(parts);
  return { bytes, text: canonicalTextOf(parts) ?? decoder.decode(bytes) };
}

/**
 * The text `canonicalBytes(parts)` decodes to (UTF-8, a leading byte-order mark dropped, as
 * `TextDecoder` does), without encoding and decoding it: the text parts joined with `\n` — the very
 * strings given, for one part — when every part is well-formed UTF-16 and the joined text does not start
 * with a byte-order mark. Undefined otherwise (a lone surrogate becomes U+FFFD in the bytes): decode them.
 */
export function canonicalTextOf(parts: readonly CanonicalPart[]): string | undefined {
  const texts = textsOf(parts);
  if (!texts.every(isWellFormed)) return undefined;
  const text = texts.length === 1 && texts[0] !== undefined ? texts[0] : texts.join("\n");
  return text.charCodeAt(0) === BYTE_ORDER_MARK ? undefined : text;
}

const BYTE_ORDER_MARK = 0xfeff;

/** The text and json parts' strings, in order. */
function textsOf(parts: readonly CanonicalPart[]): string[] {
  const texts: string[] = [];
  for (const part of parts) {
    const text = "text" in part ? part.text : "json" in part ? part.json : undefined;
    if (text !== undefined) texts.push(text);
  }
  return texts;
}

// String.prototype.isWellFormed (ES2024, in every Node this project runs on) typed here: the project's lib is ES2022.
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The revision of canonical bytes: `sha256:<64 lowercase hex digits>`. */
export function revisionOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Streaming {@link revisionOf}. */
export interface RevisionHasher {
  /** Adds the next bytes. */
  update(chunk: Uint8Array): void;
  /** The revision of everything added, `sha256:<hex>`; call once, last. */
  digest(): string;
}

/** A hasher whose `digest()` equals `revisionOf` of all chunks passed to `update`, concatenated. */
export function createRevisionHasher(): RevisionHasher {
  const hash = createHash("sha256");
  return {
    update: (chunk) => void hash.update(chunk),
    digest: () => `sha256:${hash.digest("hex")}`,
  };
}
