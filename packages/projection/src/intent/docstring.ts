import { withoutNumberPrefix } from "../file-read/outline-level.js";

/** A docstring this long or longer is passed over by a definition's window (a shorter one costs less than its gap notice). */
export const MIN_DOCSTRING_LINES = 6;
// A signature spread over more lines than this is not looked through for the docstring after it.
const MAX_SIGNATURE_LINES = 12;
// A line that opens a triple-quoted string (with a prefix such as r or u).
const OPENS = /^\s*[rRuUbBfF]{0,2}("""|''')/;
// The line that ends a signature: its code ends with ":" (a comment may follow).
const ENDS_SIGNATURE = /:\s*(?:#.*)?$/;

/**
 * The lines [start, end) of the docstring that opens the body of the Python
 * definition on line `def` — a triple-quoted string as the first statement
 * after the signature — when it takes {@link MIN_DOCSTRING_LINES} lines or
 * more and closes before `bodyEnd` (the body's end: a one-line definition
 * has none to look in); undefined otherwise (no docstring, a short one, or
 * another language). Line-number prefixes of numbered reads
 * are ignored. Pure.
 */
export function docstringSpan(lines: readonly string[], def: number, bodyEnd: number): { start: number; end: number } | undefined {
  let signatureEnd = def;
  const lastSignature = Math.min(bodyEnd, def + MAX_SIGNATURE_LINES);
  while (signatureEnd < lastSignature && !ENDS_SIGNATURE.test(withoutNumberPrefix(lines[signatureEnd] ?? "").trimEnd())) signatureEnd++;
  const start = signatureEnd + 1;
  if (start >= bodyEnd) return undefined;
  return longStringAt(lines, start, bodyEnd);
}

// A line before a module's docstring: blank, or a comment (a licence, an encoding, a shebang).
const BEFORE_MODULE_DOCSTRING = /^\s*(?:#.*)?$/;

/**
 * The docstrings of a Python file's lines that take {@link MIN_DOCSTRING_LINES} lines or more, in order:
 * the module's (its first statement, after comments and blank lines) when `module` holds (the lines start
 * at the file's top: a read of a part further down may start inside a string), and those of the
 * `definitions` (the indices of its `def` and `class` lines in line order, as declarationsOf finds them;
 * see {@link docstringSpan}) that do not stand inside one already found. Line-number prefixes of numbered
 * reads are ignored. Pure.
 */
export function longDocstrings(lines: readonly string[], definitions: Iterable<number>, module: boolean): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  let first = 0;
  while (module && first < lines.length && BEFORE_MODULE_DOCSTRING.test(withoutNumberPrefix(lines[first] ?? "").trimEnd())) first++;
  const opening = module ? longStringAt(lines, first, lines.length) : undefined;
  if (opening !== undefined) spans.push(opening);
  let after = opening?.end ?? 0;
  for (const index of definitions) {
    if (index < after) continue;
    const span = docstringSpan(lines, index, lines.length);
    if (span === undefined) continue;
    spans.push(span);
    after = span.end;
  }
  return spans;
}

// The triple-quoted string opening on line `start` when it closes before `end` and takes MIN_DOCSTRING_LINES or more.
function longStringAt(lines: readonly string[], start: number, end: number): { start: number; end: number } | undefined {
  const first = withoutNumberPrefix(lines[start] ?? "");
  const open = OPENS.exec(first);
  if (open === null) return undefined;
  const quote = open[1] ?? '"""';
  if (first.slice(open[0].length).includes(quote)) return undefined;
  for (let index = start + 1; index < end; index++) {
    if (!withoutNumberPrefix(lines[index] ?? "").includes(quote)) continue;
    return index + 1 - start >= MIN_DOCSTRING_LINES ? { start, end: index + 1 } : undefined;
  }
  return undefined;
}
