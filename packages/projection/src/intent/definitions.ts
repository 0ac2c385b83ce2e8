import { withoutNumberPrefix } from "../file-read/outline-level.js";

// A line that defines a name the intent uses is where a reader of that name starts.
const DEFINITION = /\b(?:def|class|function|fn|func|interface|struct|enum|trait|type|impl|module)\s+([A-Za-z_$][\w$]*)/;
const DEFINITION_BOOST = 6;
/** Most lines of a definition's body offered with it (a longer body is cut there, the rest left to recovery). */
export const MAX_BODY_LINES = 60;
// A line that closes what the definition opened (`)`, `]`, `}`) still belongs to it.
const CLOSER = /^\s*[)\]}]/;

/**
 * Multiplies by six the score of each scored line that defines one of
 * `names` (def, class, function … name) and returns, for each such line, the
 * end (exclusive) of its body: the first later non-blank line indented no
 * deeper than the definition (a closing bracket excepted), at most
 * {@link MAX_BODY_LINES} below it. Line-number prefixes of numbered file
 * reads are ignored. Pure.
 */
export function boostDefinitions(scores: Map<number, number>, lines: readonly string[], names: ReadonlySet<string>): Map<number, number> {
  const bodies = new Map<number, number>();
  for (const [line, score] of scores) {
    const name = DEFINITION.exec(lines[line] ?? "")?.[1];
    if (name === undefined || !names.has(name)) continue;
    scores.set(line, score * DEFINITION_BOOST);
    bodies.set(line, bodyEnd(lines, line));
  }
  return bodies;
}

function bodyEnd(lines: readonly string[], line: number): number {
  const indent = indentOf(withoutNumberPrefix(lines[line] ?? ""));
  const last = Math.min(lines.length, line + 1 + MAX_BODY_LINES);
  for (let index = line + 1; index < last; index++) {
    const text = withoutNumberPrefix(lines[index] ?? "");
    if (text.trim() === "") continue;
    if (indentOf(text) <= indent && !CLOSER.test(text)) return index;
  }
  return last;
}

/** The width of the whitespace `text` starts with. */
function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}
