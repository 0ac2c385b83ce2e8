/**
 * Splits text into lines the way the archive numbers them: a line ends after
 * each "\n" (a "\r\n" ending stays part of its line; a lone "\r" is not a line
 * break). The last line may lack a terminator. Joining the result gives back
 * the input exactly; "" gives [].
 */
export function splitLines(text: string): string[] {
  // Sized up front (counting is a fast scan): growing the array line by line copies it again and again on large texts.
  const lines = new Array<string>(countLines(text));
  let count = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n", start);
    if (end === -1) break;
    lines[count++] = text.slice(start, end + 1);
    start = end + 1;
  }
  if (start < text.length) lines[count++] = text.slice(start);
  return lines;
}

/** Number of lines `splitLines` would return, without building them. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}
