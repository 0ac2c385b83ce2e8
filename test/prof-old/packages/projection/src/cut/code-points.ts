function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Number of Unicode code points in `text`: a surrogate pair counts once, a
 * lone surrogate counts once.
 */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    if (isHigh(text.charCodeAt(index)) && isLow(text.charCodeAt(index + 1))) index++;
    count++;
  }
  return count;
}

/**
 * Whether `text` has more than `limit` code points, without counting all of a
 * long text: its UTF-16 length bounds the count from both sides.
 */
export function hasMoreCodePointsThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  if (text.length > 2 * limit) return true;
  return countCodePoints(text) > limit;
}

/** UTF-16 index just after the first `count` code points (text.length when it has fewer); never inside a pair. */
export function indexAfterCodePoints(text: string, count: number): number {
  let index = 0;
  for (let seen = 0; seen < count && index < text.length; seen++) {
    index += isHigh(text.charCodeAt(index)) && isLow(text.charCodeAt(index + 1)) ? 2 : 1;
  }
  return index;
}

/** UTF-16 index where the last `count` code points start (0 when it has fewer); never inside a pair. */
export function indexBeforeLastCodePoints(text: string, count: number): number {
  let index = text.length;
  for (let seen = 0; seen < count && index > 0; seen++) {
    index -= isLow(text.charCodeAt(index - 1)) && isHigh(text.charCodeAt(index - 2)) ? 2 : 1;
  }
  return index;
}
