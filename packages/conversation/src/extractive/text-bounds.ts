// Control characters other than tab and newline would garble the note.
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;
const ELLIPSIS = " …";

/** `text` on one line: control characters and runs of whitespace become one space; trimmed. */
export function oneLine(text: string): string {
  return text.replace(CONTROL, " ").replace(/\s+/g, " ").trim();
}

/**
 * `text` cut to at most `maxChars` UTF-16 units, at the last space before the
 * limit when there is one in the second half (never inside a surrogate pair),
 * with " …" marking the cut. Unchanged when it fits.
 */
export function clipText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = Math.max(1, maxChars - ELLIPSIS.length);
  let end = room;
  const space = text.lastIndexOf(" ", room);
  if (space >= room / 2) end = space;
  else if (isLowSurrogate(text.charCodeAt(end))) end--;
  return text.slice(0, end).trimEnd() + ELLIPSIS;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The start of a multi-line text, at most `maxChars` long, cut at the last
 * line end, else sentence end, else space before the limit (" …" marks a cut).
 * Line ends are normalised to "\n", runs of blank lines become one, and
 * trailing spaces go.
 */
export function leadingText(text: string, maxChars: number): string {
  const normal = text
    .replace(/\r\n?/g, "\n")
    .replace(CONTROL, " ")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (normal.length <= maxChars) return normal;
  const room = maxChars - ELLIPSIS.length;
  const head = normal.slice(0, room);
  const lineEnd = head.lastIndexOf("\n");
  if (lineEnd >= room / 2) return head.slice(0, lineEnd).trimEnd() + ELLIPSIS;
  const sentenceEnd = Math.max(head.lastIndexOf(". "), head.lastIndexOf("? "), head.lastIndexOf("! "));
  if (sentenceEnd >= room / 2) return head.slice(0, sentenceEnd + 1) + ELLIPSIS;
  return clipText(normal.replace(/\n/g, " "), maxChars);
}

/** A key under which two texts count as the same fact: lowercase letters and digits only. */
export function sameTextKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** 32-bit FNV-1a of `text`, as 8 hex digits: tells long keys apart without keeping them. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The latest `max` of `seqs` plus `seq` (kept once), ascending. */
export function withSeq(seqs: readonly number[], seq: number, max: number): number[] {
  const next = seqs.filter((known) => known !== seq);
  next.push(seq);
  next.sort((left, right) => left - right);
  return next.slice(-max);
}
