// Runs of non-ASCII characters: ASCII (one byte per code unit) is skipped by the regular expression engine.
const NON_ASCII = /[^\0-\x7f]+/g;

/** UTF-8 byte length of a string, without encoding it (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  NON_ASCII.lastIndex = 0;
  for (let match = NON_ASCII.exec(text); match !== null; match = NON_ASCII.exec(text)) {
    const end = match.index + match[0].length;
    // Each code unit here is already counted once: add what UTF-8 takes beyond that.
    for (let index = match.index; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code < 0x800) {
        bytes += 1;
        continue;
      }
      // 3 bytes; a surrogate pair (two code units) takes 4, a lone surrogate 3 (as U+FFFD).
      bytes += 2;
      if (code >= 0xd800 && code <= 0xdbff && index + 1 < end) {
        const next = text.charCodeAt(index + 1);
        if (next >= 0xdc00 && next <= 0xdfff) index++;
      }
    }
  }
  return bytes;
}
