import { INFERENCE_LINES } from "../file-read/looks-like-numbered-file.js";

const PATH_HIT = /^([^\s:]+):(\d+)[:-]/;
const PATH_ONLY_HIT = /^[^\s:]*\/[^\s:/]+\.[A-Za-z0-9]{1,10}:/;
const NUMBER_LINE = /^(\d+)([:-])/;
const SEPARATOR = /^--\r?\n?$/;

type Role = "separator" | "path-hit" | "path-context" | "number-hit" | "number-context" | "other";

/**
 * Cheap test (first 50 lines only) that output is grep / rg output: most
 * lines are hits or context lines ("path:12:text", "path-12-text",
 * "dir/file.py:text", "12:text", "12-text") or "--" separators, with at least
 * two hits (one when there is one line). Numbered lines that all follow one
 * another with no separator are a file view (SWE-agent's "12:code"), not a grep.
 */
export function looksLikeGrepOutput(lines: readonly string[]): boolean {
  const sample = lines.slice(0, INFERENCE_LINES).filter((line) => line.trim() !== "");
  if (sample.length === 0) return false;
  // Context lines ("path-12-text") name a file that some hit names too.
  const files = [...new Set(sample.map((line) => PATH_HIT.exec(line)?.[1] ?? "").filter((name) => name !== "" && !/^\d+$/.test(name)))];
  const roles = sample.map((line): Role => {
    if (SEPARATOR.test(line)) return "separator";
    const path = PATH_HIT.exec(line);
    if ((path && !/^\d+$/.test(path[1] ?? "")) || PATH_ONLY_HIT.test(line)) return "path-hit";
    if (files.some((file) => line.startsWith(file + "-"))) return "path-context";
    const number = NUMBER_LINE.exec(line);
    if (number) return number[2] === ":" ? "number-hit" : "number-context";
    return "other";
  });
  const count = (...wanted: Role[]): number => roles.filter((role) => wanted.includes(role)).length;
  const hits = count("path-hit", "number-hit");
  const structured = sample.length - count("other");
  const numbers = sample.flatMap((line) => {
    const match = NUMBER_LINE.exec(line);
    return match ? [Number(match[1])] : [];
  });
  const consecutive = numbers.every((value, index) => index === 0 || value === (numbers[index - 1] ?? 0) + 1);
  const fileView = count("path-hit", "path-context", "separator") === 0 && consecutive;
  return hits >= Math.min(2, sample.length) && structured >= 0.8 * sample.length && !fileView;
}
