/**
 * The pre-tokenizing split of o200k_base and cl100k_base, by hand for ASCII text.
 *
 * Both encodings split text into pieces with a regular expression of Unicode classes before merging each
 * piece into tokens; over tool output that pattern is the whole cost of counting (11–14 MB/s here). The
 * scanners below take the same decisions with a table of ASCII classes: where a decision would look at a
 * character outside ASCII (a letter, digit or space of another script may continue a run there), they
 * answer {@link NEEDS_PATTERN} and the caller runs the pattern itself at that position, so the pieces are
 * the pattern's own, everywhere. Each encoding's alternatives are mirrored in order (the first that
 * matches wins), greedy runs included; tests compare piece by piece against the pattern.
 */

/** What a scanner answers where the pattern itself must decide (a character outside ASCII is involved). */
export const NEEDS_PATTERN = -1;

/** The end of the piece that starts at `start` (`start` < text.length), or {@link NEEDS_PATTERN}. */
export type PieceScanner = (text: string, start: number) => number;

// ASCII classes: letters (lower, upper), digits, the space, other blanks (\t \v \f), line breaks (\r \n), the rest.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;
const BLANK = 5;
const BREAK = 6;
const OTHER = 7;
const CLASS = new Uint8Array(128).fill(OTHER);
for (let code = 0; code < 128; code++) {
  if (code >= 97 && code <= 122) CLASS[code] = LOWER;
  else if (code >= 65 && code <= 90) CLASS[code] = UPPER;
  else if (code >= 48 && code <= 57) CLASS[code] = DIGIT;
}
CLASS[32] = SPACE;
for (const code of [9, 11, 12]) CLASS[code] = BLANK;
CLASS[10] = BREAK;
CLASS[13] = BREAK;
const APOSTROPHE = 39;
const SLASH = 47;

/** The class of `text[at]`, or 0 for a character outside ASCII. */
function classAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code < 128 ? (CLASS[code] ?? OTHER) : 0;
}

const isLetter = (kind: number): boolean => kind === LOWER || kind === UPPER;
const isBlank = (kind: number): boolean => kind === SPACE || kind === BLANK || kind === BREAK;

/** The end of `'s|'d|'m|'t|'ll|'ve|'re` (any case) at `at`, or `at` when none is there. */
function contractionEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== APOSTROPHE) return at;
  const first = text.charCodeAt(at + 1) | 0x20;
  if (first === 115 || first === 100 || first === 109 || first === 116) return at + 2;
  const second = text.charCodeAt(at + 2) | 0x20;
  if ((first === 108 && second === 108) || ((first === 118 || first === 114) && second === 101)) return at + 3;
  return at;
}

/** The end of a run of `kind` from `at`; NEEDS_PATTERN when the run stops at a character outside ASCII. */
function runEnd(text: string, at: number, accepts: (kind: number) => boolean): number {
  let end = at;
  while (end < text.length) {
    const kind = classAt(text, end);
    if (kind === 0) return NEEDS_PATTERN;
    if (!accepts(kind)) break;
    end++;
  }
  return end;
}

/** Up to three digits from `at` (`\p{N}{1,3}`). */
function digitsEnd(text: string, at: number): number {
  let end = at + 1;
  while (end < text.length && end < at + 3) {
    const kind = classAt(text, end);
    if (kind === 0) return NEEDS_PATTERN;
    if (kind !== DIGIT) break;
    end++;
  }
  return end;
}

/** The end of a run of other characters from `at` (`[^\s\p{L}\p{N}]+`) and of the line breaks (and slashes) after it. */
function symbolsEnd(text: string, at: number, slashes: boolean): number {
  let end = runEnd(text, at, (kind) => kind === OTHER);
  if (end === NEEDS_PATTERN) return end;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (code !== 10 && code !== 13 && !(slashes && code === SLASH)) break;
  }
  return end;
}

/**
 * A run of blanks from `start`: to its last line break (`\s*[\r\n]+`), or to the end of the text (`\s+$`,
 * which cl100k_base tries first: `endFirst`), else all but its last blank when that leaves one
 * (`\s+(?!\S)`), else the one blank (`\s+`, `\s`).
 */
function blanksEnd(text: string, start: number, endFirst: boolean): number {
  const end = runEnd(text, start, isBlank);
  if (end === NEEDS_PATTERN || (endFirst && end === text.length)) return end;
  for (let at = end - 1; at >= start; at--) {
    const code = text.charCodeAt(at);
    if (code === 10 || code === 13) return at + 1;
  }
  if (end === text.length) return end;
  return end - start >= 2 ? end - 1 : end;
}

/** o200k_base: an optional lead, capitals then small letters (or capitals alone), and an optional contraction. */
function o200kWordEnd(text: string, letters: number): number {
  let end = letters;
  while (end < text.length && text.charCodeAt(end) >= 65 && text.charCodeAt(end) <= 90) end++;
  while (end < text.length && text.charCodeAt(end) >= 97 && text.charCodeAt(end) <= 122) end++;
  if (end < text.length && text.charCodeAt(end) >= 128) return NEEDS_PATTERN;
  return contractionEnd(text, end);
}

/** o200k_base's pattern (gpt-tokenizer 4.0.0), alternative by alternative. */
export const scanO200k: PieceScanner = (text, start) => {
  const kind = classAt(text, start);
  if (kind === 0) return NEEDS_PATTERN;
  if (isLetter(kind)) return o200kWordEnd(text, start);
  if (kind === DIGIT) return digitsEnd(text, start);
  if (kind !== BREAK && start + 1 < text.length) {
    const next = classAt(text, start + 1);
    if (next === 0) return NEEDS_PATTERN;
    if (isLetter(next)) return o200kWordEnd(text, start + 1);
    if (kind === SPACE && next === OTHER) return symbolsEnd(text, start + 1, true);
  }
  if (kind === OTHER) return symbolsEnd(text, start, true);
  return blanksEnd(text, start, false);
};

/** cl100k_base's pattern (gpt-tokenizer 4.0.0), alternative by alternative. */
export const scanCl100k: PieceScanner = (text, start) => {
  const kind = classAt(text, start);
  if (kind === 0) return NEEDS_PATTERN;
  const contraction = contractionEnd(text, start);
  if (contraction !== start) return contraction;
  if (isLetter(kind)) return runEnd(text, start, isLetter);
  if (kind === DIGIT) return digitsEnd(text, start);
  if (kind !== BREAK && start + 1 < text.length) {
    const next = classAt(text, start + 1);
    if (next === 0) return NEEDS_PATTERN;
    if (isLetter(next)) return runEnd(text, start + 1, isLetter);
    if (kind === SPACE && next === OTHER) return symbolsEnd(text, start + 1, false);
  }
  if (kind === OTHER) return symbolsEnd(text, start, false);
  return blanksEnd(text, start, true);
};

/** The patterns these scanners mirror, by their source (a library whose pattern differs is not scanned by hand). */
export const SCANNED_PATTERNS: ReadonlyMap<string, PieceScanner> = new Map([
  [
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    scanO200k,
  ],
  [
    "'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s+$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s",
    scanCl100k,
  ],
]);

/**
 * Calls `onPiece(start, end)` for each piece of `text` as `pattern` (global, Unicode) splits it, scanning by
 * hand where `scan` can and running the pattern where it cannot; stops early when `onPiece` returns true.
 */
export function forEachPiece(text: string, pattern: RegExp, scan: PieceScanner, onPiece: (start: number, end: number) => boolean): void {
  let at = 0;
  while (at < text.length) {
    let start = at;
    let end = scan(text, at);
    if (end === NEEDS_PATTERN) {
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (match === null) return;
      start = match.index;
      end = start + match[0].length;
    }
    if (onPiece(start, end)) return;
    at = end;
  }
}
