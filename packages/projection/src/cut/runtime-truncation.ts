/** What an agent runtime says it already removed from a tool's output before Loupe saw it. */
export interface RuntimeTruncation {
  /** Tokens the runtime says it removed (Codex counts tokens). */
  removedTokens?: number;
  /** Lines the runtime says it removed. */
  removedLines?: number;
  /** Characters the runtime says it removed (cut version 3: Claude Code's failed-command output, Gemini CLI's head + tail, Codex for a model it does not know). */
  removedChars?: number;
  /** Bytes the runtime says it removed (cut version 3: OpenCode's MCP results). */
  removedBytes?: number;
  /** Bytes of the whole output when the runtime names its size (Claude Code's "Output too large (1.2MB)"). */
  originalBytes?: number;
  /** Where the runtime saved the whole output, when it says so. */
  savedPath?: string;
  /** The lines that carry the runtime's own notice (short enough to keep through a cut). */
  markerSpans: TextLine[];
}

interface MarkerRule {
  pattern: RegExp;
  read(match: RegExpExecArray, found: RuntimeTruncation): void;
  /** The first cut version that knows this notice (default 2): an older version keeps its bytes. */
  since?: number;
}

const UNITS: Record<string, number> = { B: 1, KB: 1024, MB: 1024 * 1024, GB: 1024 * 1024 * 1024 };
const number = (text: string | undefined): number => Number((text ?? "").replace(/,/g, ""));

// The notices of the runtimes Loupe is used with, as they print them (test/runtimes/FINDINGS.md).
const RULES: readonly MarkerRule[] = [
  // Claude Code, output saved to a file and previewed.
  {
    pattern: /Output too large \(([\d.]+)\s*(B|KB|MB|GB)\)\. Full output saved to: (\S.*?)\s*$/,
    read: (m, found) => ((found.originalBytes = Math.round(Number(m[1]) * (UNITS[m[2] ?? "B"] ?? 1))), (found.savedPath = m[3] ?? "")),
  },
  { pattern: /^Preview \(first [\d.]+\s*[KM]?B\):\s*$/, read: () => undefined },
  // Codex, head and tail kept around a marker (inside a line: it cuts by characters).
  { pattern: /…(\d[\d,]*) tokens truncated…/, read: (m, found) => (found.removedTokens = (found.removedTokens ?? 0) + number(m[1])) },
  { pattern: /\[\.\.\. omitted (\d[\d,]*) of (\d[\d,]*) lines \.\.\.\]/, read: (m, found) => (found.removedLines = (found.removedLines ?? 0) + number(m[1])) },
  { pattern: /^Total output lines: \d[\d,]*\s*$/, read: () => undefined },
  // Gemini CLI, output saved and head + tail kept.
  { pattern: /The full output has been saved to: (\S.*?)\s*$/, read: (m, found) => (found.savedPath = m[1] ?? "") },
  { pattern: /^\.\.\. \[CONTENT TRUNCATED\] \.\.\.\s*$/, read: () => undefined },
  // OpenCode, head kept and output saved.
  { pattern: /^\.\.\.(\d[\d,]*) lines truncated\.\.\.\s*$/, read: (m, found) => (found.removedLines = (found.removedLines ?? 0) + number(m[1])) },
  { pattern: /(?:^|\. )Full output saved to: (\S.*?)\s*$/, read: (m, found) => (found.savedPath ??= m[1] ?? "") },
  // Claude Code 2.1, a failed command's output: head and tail around this line.
  {
    pattern: /^\.\.\. \[(\d[\d,]*) characters truncated\] \.\.\.\s*$/,
    read: (m, found) => (found.removedChars = (found.removedChars ?? 0) + number(m[1])),
    since: 3,
  },
  // Gemini CLI 0.61, head and tail kept around this line, the whole output saved.
  {
    pattern: /^\.\.\. \[(\d[\d,]*) characters omitted\] \.\.\.\s*$/,
    read: (m, found) => (found.removedChars = (found.removedChars ?? 0) + number(m[1])),
    since: 3,
  },
  {
    pattern: /^Output too large\. Showing first [\d,]+ and last [\d,]+ characters\. For full output see: (\S.*?)\s*$/,
    read: (m, found) => (found.savedPath ??= m[1] ?? ""),
    since: 3,
  },
  // Codex for a model it does not know cuts by characters; its header line.
  { pattern: /…(\d[\d,]*) chars truncated…/, read: (m, found) => (found.removedChars = (found.removedChars ?? 0) + number(m[1])), since: 3 },
  { pattern: /^Warning: truncated output \(original token count: \d[\d,]*\)\s*$/, read: () => undefined, since: 3 },
  // OpenCode 1.18: the tail of a bash output, the head of an MCP result.
  { pattern: /^\.\.\.output truncated\.\.\.\s*$/, read: () => undefined, since: 3 },
  { pattern: /^\.\.\.(\d[\d,]*) bytes truncated\.\.\.\s*$/, read: (m, found) => (found.removedBytes = (found.removedBytes ?? 0) + number(m[1])), since: 3 },
];

/** The newest cut version whose notices this module knows. */
export const RUNTIME_NOTICES_VERSION = 3;

// Every rule's pattern holds one of these words: only the lines around a hit are read.
const ANY_MARKER = /saved to: |truncated|TRUNCATED|omitted \d|characters omitted\]|For full output see: |Total output lines|Preview \(first/g;

/** Lines longer than this are read for counts but not kept as a notice line (Codex's marker can sit inside a long line). */
const MAX_MARKER_LINE = 400;

/** A line of the text, as UTF-16 offsets: `start` inclusive, `end` at its newline (or the text's end). */
export interface TextLine {
  start: number;
  end: number;
}

/**
 * Finds the notices an agent runtime left in a tool output it had already shortened (Claude Code's
 * saved-output preview and failed-command marker, Codex's token marker, Gemini CLI's and OpenCode's
 * truncation notices), so a cut can keep those lines and say how much was gone before it. `version`
 * is the cut version asking (default the newest): notices learnt by a later version are not seen,
 * so an earlier version's output keeps its bytes. Pure, and one pass of a regular expression over
 * a text without notices; `undefined` when the text carries none.
 */
export function findRuntimeTruncation(text: string, version: number = RUNTIME_NOTICES_VERSION): RuntimeTruncation | undefined {
  const rules = RULES.filter((rule) => (rule.since ?? 2) <= version);
  const found: RuntimeTruncation = { markerSpans: [] };
  let seen = false;
  let lastLineStart = -1;
  for (const hit of text.matchAll(ANY_MARKER)) {
    const start = text.lastIndexOf("\n", hit.index) + 1;
    if (start === lastLineStart) continue;
    lastLineStart = start;
    const newline = text.indexOf("\n", hit.index);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    let marked = false;
    for (const rule of rules) {
      const match = rule.pattern.exec(line);
      if (match === null) continue;
      rule.read(match, found);
      marked = true;
    }
    if (!marked) continue;
    seen = true;
    if (line.length <= MAX_MARKER_LINE) found.markerSpans.push({ start, end });
  }
  return seen ? found : undefined;
}
