/**
 * The final state of a line redrawn with "\r" (a progress bar): its last
 * non-empty "\r"-separated segment plus the line's terminator. A "\r\n"
 * terminator is not a redraw. A line without redraws, or whose segments are
 * all empty, comes back as it is.
 */
export function collapseRedraws(line: string): string {
  const terminator = line.endsWith("\r\n") ? "\r\n" : line.endsWith("\n") ? "\n" : "";
  const body = line.slice(0, line.length - terminator.length);
  let end = body.length;
  // Walk back over the segments: the first non-empty one from the end is what the terminal shows last.
  while (end > 0) {
    const cr = body.lastIndexOf("\r", end - 1);
    if (cr === -1) return end === body.length ? line : body.slice(0, end) + terminator;
    if (cr < end - 1) return body.slice(cr + 1, end) + terminator;
    end = cr;
  }
  return line;
}

/** True when `line` holds a "\r" that is not part of its "\r\n" terminator. */
export function hasRedraws(line: string): boolean {
  const cr = line.indexOf("\r");
  return cr !== -1 && !(cr === line.length - 2 && line.endsWith("\r\n"));
}
