/** Most UTF-8 bytes of an intent a projection uses (16 KiB); a longer intent is cut, never refused. */
export const MAX_INTENT_BYTES = 16 * 1024;

/**
 * The part of `intent` a projection uses: its first {@link MAX_INTENT_BYTES}
 * UTF-8 bytes, cut at a code-point boundary (a surrogate pair is never split;
 * a lone surrogate counts as U+FFFD, 3 bytes). Shorter text comes back as it
 * is. Pure.
 */
export function boundIntent(intent: string, maxBytes = MAX_INTENT_BYTES): string {
  // UTF-8 takes at least one byte per UTF-16 code unit: a short text fits without counting.
  if (intent.length <= maxBytes / 3) return intent;
  let bytes = 0;
  for (let index = 0; index < intent.length; index++) {
    const code = intent.charCodeAt(index);
    const pair = code >= 0xd800 && code <= 0xdbff && index + 1 < intent.length && isLow(intent.charCodeAt(index + 1));
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + size > maxBytes) return intent.slice(0, index);
    bytes += size;
    if (pair) index++;
  }
  return intent;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
