const WHITESPACE = /\s/;

/**
 * Where the segment of `text` that starts at `start` (0, or the end of the
 * segment before) ends, or the text's length: text is walked in runs of
 * whole lines whose token counts add up to the count of the whole text, in
 * o200k_base and cl100k_base alike (plain loops, no generator: the counts
 * under every projection walk them, see `segmentText`). Both
 * tokenizers first cut the text into pieces with a regular expression and
 * encode each piece on its own; a piece reaches past a line's "\n" only when
 * the next line starts with "\r" or "\n" (`\s*[\r\n]+`), with "/" after a
 * line ending in punctuation (o200k's `[^\s\p{L}\p{N}]+[\r\n/]*`), with blanks
 * followed by one of those or by the end of the text, or with other
 * whitespace. So the text is split only before a line that starts, after
 * spaces and tabs, with a character that is not whitespace, and is "/" only
 * after a line ending in an ASCII letter or digit: there the piece before
 * ends at the "\n", and the next piece starts the line exactly as it would
 * start the line alone. Joining the segments gives back the text.
 */
export function segmentEnd(text: string, start: number): number {
  for (let newline = text.indexOf("\n", start); newline !== -1 && newline + 1 < text.length; newline = text.indexOf("\n", newline + 1)) {
    if (startsPiece(text, newline + 1)) return newline + 1;
  }
  return text.length;
}

/** The segment from `start` to `end`: the text itself when it is the whole of it. */
export function segmentText(text: string, start: number, end: number): string {
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function startsPiece(text: string, at: number): boolean {
  let index = at;
  let code = text.charCodeAt(index);
  while (code === 0x20 || code === 0x09) code = text.charCodeAt(++index);
  // NaN (the end of the text) fails every comparison.
  // "/" continues a piece only of punctuation before the "\n": safe after a letter or digit.
  if (code === 0x2f) return isAsciiAlphanumeric(text.charCodeAt(text.charCodeAt(at - 2) === 0x0d ? at - 3 : at - 2));
  if (code > 0x20 && code < 0x7f) return true;
  return code >= 0x80 && !WHITESPACE.test(text.charAt(index));
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}
