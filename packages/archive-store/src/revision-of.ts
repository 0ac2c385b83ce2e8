import { createHash } from "node:crypto";

/** One part of a tool result, as far as its revision is concerned. */
export type CanonicalPart = { text: string } | { json: string } | { media: unknown };

const SEPARATOR = new Uint8Array([0x0a]);
const encoder = new TextEncoder();

/**
 * A result's canonical bytes: its text and json parts, in order, joined with `\n` between parts, as UTF-8
 * (a plain Uint8Array, not a Buffer). Media parts are left out (they add no separator). No parts, or only media, give empty bytes.
 */
export function canonicalBytes(parts: readonly CanonicalPart[]): Uint8Array {
  const encoded: Uint8Array[] = [];
  for (const part of parts) {
    const text = "text" in part ? part.text : "json" in part ? part.json : undefined;
    if (text === undefined) continue;
    if (encoded.length > 0) encoded.push(SEPARATOR);
    encoded.push(encoder.encode(text));
  }
  const joined = Buffer.concat(encoded);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
}

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
