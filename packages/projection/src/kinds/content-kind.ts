import type { ResultKind } from "../projectors/projector.js";

/** Content inference looks at this many lines from the start, never the whole text. */
export const CONTENT_SAMPLE_LINES = 50;
/** …and at most this many characters of them (one huge line must not make the look costly). */
const CONTENT_SAMPLE_CHARS = 16 * 1024;

const GREP_HIT = /^[^\s:][^:\n]{0,300}:\d+[:-]|^(?:\.{0,2}\/)?[\w.@+~-]+(?:\/[\w.@+~-]+)*\.\w{1,8}[:-](?!\/)/;
/** "12:text" or "12-text" (grep -n on one file, or a numbered file view), and cat -n's "    12\ttext". */
const NUMBERED_LINE = /^(\d{1,9})([:-])|^\s*(\d{1,9})\t/;
const PATH_LINE = /^(?:\.{0,2}\/)?[\w.@+~-]+(?:\/[\w.@+~ -]*)*\/?$/;
const LS_LONG_LINE = /^(?:[-dlcbps][rwxsStT-]{9}[.+@]?\s+\d+\s|total \d+$)/;

/**
 * The kind of a text judged by its first 50 lines only (used when the tool's
 * name and arguments say nothing):
 * - a JSON object or array (starts with `{`/`[` and ends with the matching
 *   bracket) → "structured";
 * - at least 2 lines and half the non-blank lines shaped `path:line:`,
 *   `path:line-` or `file.ext:text` (grep output) → "search";
 * - at least 2 lines and half the non-blank lines numbered (`12:`, `12-`, or
 *   cat -n's `    12<tab>`): grep context (`12-` lines or `--` separators) or
 *   sparse numbers → "search" (grep -n on one file), numbers counting up by
 *   one (90% of steps) → "file_read" (a numbered file view);
 * - at least 3 lines and 60% of the non-blank lines shaped like paths (with a
 *   "/" or a file extension) or `ls -l` entries → "directory_list";
 * - anything else → "generic".
 */
export function contentKind(text: string): ResultKind {
  const start = text.search(/\S/);
  if (start === -1) return "generic";
  if (looksLikeJson(text, start)) return "structured";
  const lines = sampleLines(text).filter((line) => line.trim() !== "");
  let hits = 0;
  let paths = 0;
  const numbers: number[] = [];
  let grepContext = false;
  for (const line of lines) {
    const numbered = NUMBERED_LINE.exec(line);
    if (line === "--") grepContext = true;
    else if (numbered !== null) {
      numbers.push(Number(numbered[1] ?? numbered[3]));
      grepContext ||= numbered[2] === "-";
    } else if (GREP_HIT.test(line)) hits++;
    else if (LS_LONG_LINE.test(line) || (PATH_LINE.test(line.trim()) && /[/]|\.\w{1,8}$/.test(line.trim()))) paths++;
  }
  if (hits >= 2 && hits * 2 >= lines.length) return "search";
  if (numbers.length >= 2 && numbers.length * 2 >= lines.length) return grepContext ? "search" : numberedKind(numbers);
  if (paths >= 3 && paths >= lines.length * 0.6) return "directory_list";
  return "generic";
}

/** A search tool's own count line above the files it lists ("Found 12 files"). */
const FILES_FOUND_LINE = /^Found \d[\d,]* files?$/;

/**
 * Whether a search's output is a list of files, not of matching lines (`grep -l`, `rg --files`, Claude Code's
 * Grep in its default files_with_matches mode): at least 3 lines, and every non-blank one of the first 50 a path
 * with a "/" or a file extension, no line starting with a space (a file's own lines, `grep x file`, never all
 * look so), a "Found N files" line first allowed. Such a list is projected as a listing.
 */
export function isPathList(text: string): boolean {
  const lines = sampleLines(text).filter((line) => line.trim() !== "");
  const paths = FILES_FOUND_LINE.test(lines[0] ?? "") ? lines.slice(1) : lines;
  return paths.length >= 3 && paths.every((line) => PATH_LINE.test(line) && /[/]|\.\w{1,8}$/.test(line));
}

/** Numbered lines that mostly count up by one are a file view; sparse numbers are grep hits. */
function numberedKind(numbers: readonly number[]): ResultKind {
  let steps = 0;
  for (let index = 1; index < numbers.length; index++) if (numbers[index] === (numbers[index - 1] as number) + 1) steps++;
  return steps >= (numbers.length - 1) * 0.9 ? "file_read" : "search";
}

/** Checks only the first and last non-blank characters and what follows the first: never parses the whole text. */
function looksLikeJson(text: string, start: number): boolean {
  let end = text.length - 1;
  while (end > start && /\s/.test(text[end] as string)) end--;
  const first = text[start];
  const last = text[end];
  if (!((first === "{" && last === "}") || (first === "[" && last === "]"))) return false;
  // The character after the bracket must be one JSON allows there ("[1]" yes, "[loupe] …" or "{foo}" no).
  const rest = text.slice(start + 1, start + 64).trimStart();
  return first === "{" ? /^["}]/.test(rest) : /^(?:["{[\]\d-]|(?:true|false|null)\b)/.test(rest);
}

function sampleLines(text: string): string[] {
  const sample = text.length > CONTENT_SAMPLE_CHARS ? text.slice(0, CONTENT_SAMPLE_CHARS) : text;
  return sample.split("\n", CONTENT_SAMPLE_LINES).map((line) => line.replace(/\r$/, ""));
}
