// Which lines may be evidence, found cheaply: every evidence pattern (line-patterns.ts) needs one of these
// literals in its line, or starts (after indentation) with one of the line-start shapes below. A line with
// neither is ordinary unless a structure (traceback, section, summary block, YAML, indented detail) is being
// followed. Keep this a superset of the patterns: classify-lines.test.ts checks both ways agree.

// Literals anywhere in a line, found by one native scan of the whole text. Only literals rare in ordinary
// output and at least four characters long: short or common ones would slow the scan several times.
const ANYWHERE = new RegExp(
  [
    "passed|failed|rror|RROR|skipped|arning|ARNING|deselected|rerun|passing|failing|pending|no tests ran|FAIL|XPASS",
    "Tests:|Test Suites:|Snapshots:|Tests run:|test result:|problem|generated|Exception|Failed|Interrupt|Exit|Failure|Fault",
    "fatal|FATAL|panic|PANIC|Segmentation fault|core dumped|command not found|No such file|Permission denied",
    "Traceback|During handling|above exception|short test summary|\\.go:",
  ].join("|"),
  "g",
);

// Shapes at the start of a line (after indentation), tested only on lines whose first character can open one.
const AT_START = /^(?:Ran \d|OK|[#ℹ] |ok\s|PASS|_{3}|not ok|[✖✗✕×✘●]|E {2}|npm |make|at )/;
const START_CHARACTERS = new Set(["R", "O", "#", "ℹ", "o", "P", "_", "n", "✖", "✗", "✕", "×", "✘", "●", "E", "m", "a"]);
// Short literals anywhere, tested per line with includes (cheap) rather than in the scan.
const SHORT_LITERALS = [": in ", "\r"];

/**
 * Marks the lines (1 in the mask, by 0-based index) that may be evidence.
 * `text` is `lines` joined. One native scan of the text for the rarer
 * literals, then a few character checks per remaining line.
 */
export function signalLines(lines: readonly string[], text: string): Uint8Array {
  const mask = new Uint8Array(lines.length);
  const anywhere = new RegExp(ANYWHERE);
  let line = 0;
  let lineStart = 0;
  for (let match = anywhere.exec(text); match !== null; match = anywhere.exec(text)) {
    while (line < lines.length && lineStart + (lines[line] ?? "").length <= match.index) lineStart += (lines[line++] ?? "").length;
    if (line >= lines.length) break;
    mask[line] = 1;
    anywhere.lastIndex = lineStart + (lines[line] ?? "").length;
  }
  // The short literals, by native scans of the whole text too (they never span a line break): most texts have none.
  for (const literal of SHORT_LITERALS) markOccurrences(lines, text, literal, mask);
  for (let index = 0; index < lines.length; index++) {
    if (mask[index] === 1) continue;
    if (startsLikeEvidence(lines[index] ?? "")) mask[index] = 1;
  }
  return mask;
}

/** Marks every line holding `literal` (which has no line break), from the text's occurrences. */
function markOccurrences(lines: readonly string[], text: string, literal: string, mask: Uint8Array): void {
  let line = 0;
  let lineStart = 0;
  for (let at = text.indexOf(literal); at !== -1;) {
    while (line < lines.length && lineStart + (lines[line] ?? "").length <= at) lineStart += (lines[line++] ?? "").length;
    if (line >= lines.length) return;
    mask[line] = 1;
    lineStart += (lines[line++] ?? "").length;
    at = text.indexOf(literal, lineStart);
  }
}

function startsLikeEvidence(line: string): boolean {
  let start = 0;
  while (start < line.length && (line[start] === " " || line[start] === "\t")) start++;
  const first = line[start];
  if (first === undefined || !START_CHARACTERS.has(first)) return false;
  return AT_START.test(start === 0 ? line : line.slice(start));
}
