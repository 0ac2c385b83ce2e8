// Every evidence pattern (line-patterns.ts) needs one of these literals in its line, so a line without
// any of them is ordinary unless a structure (traceback, section, summary block, YAML, indented detail)
// is being followed. One native scan of the whole text finds the candidates, instead of a dozen regexes
// per line. Keep this a superset of the patterns: classify-lines.test.ts checks both ways agree.
const SIGNAL = new RegExp(
  [
    "passed|failed|rror|RROR|skipped|arning|ARNING|deselected|rerun|passing|failing|pending|no tests ran|Ran |^OK|FAIL|XPASS",
    "Tests:|Test Suites:|Snapshots:|Tests run:|# |ℹ |test result:|^ok\\s|^PASS|problem|generated|not ok|[✖✗✕×✘●]|___",
    "\\.go:| at |\\tat |: in |E  |Exception|Failed|Interrupt|Exit|Failure|Fault|fatal|FATAL|panic|PANIC|npm |\\*\\*\\*",
    "Segmentation fault|core dumped|command not found|No such file or directory|Permission denied",
    "Traceback|During handling|above exception|short test summary|\\r(?!\\n)",
  ].join("|"),
  "gm",
);

/**
 * Marks the lines (1 in the mask, by 0-based index) that may be evidence:
 * those holding one of the literals every evidence pattern needs. `text` is
 * `lines` joined. Scans the text once, natively, skipping to the next line
 * after each hit.
 */
export function signalLines(lines: readonly string[], text: string): Uint8Array {
  const mask = new Uint8Array(lines.length);
  const signal = new RegExp(SIGNAL);
  let line = 0;
  let lineStart = 0;
  for (let match = signal.exec(text); match !== null; match = signal.exec(text)) {
    while (line < lines.length && lineStart + (lines[line] ?? "").length <= match.index) lineStart += (lines[line++] ?? "").length;
    if (line >= lines.length) break;
    mask[line] = 1;
    signal.lastIndex = lineStart + (lines[line] ?? "").length;
  }
  return mask;
}
