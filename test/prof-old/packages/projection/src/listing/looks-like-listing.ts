import { INFERENCE_LINES } from "../file-read/looks-like-numbered-file.js";

const TREE_BRANCH = /^(?:(?:│|\|)[\s\u00a0]{3}|[\s\u00a0]{4})*(?:├──|└──|\|--|`--)[\s\u00a0]/;
const LONG_FORMAT = /^[-dlcbpsD][rwxsStTl-]{9}[.+@]?\s+\d+\s/;
const LS_HEADER = /^\S.*:\r?\n?$/;
const NOTE = /^(?:total \d+|find: |ls: )/;
// A path or a bare name: no leading blank, no tab or ":", not too long.
const PATH_LIKE = /^[\w.~@+\-/[\]()$#%,=][^\t:]{0,300}$/;
const HAS_DIRECTORY_OR_EXTENSION = /\/|\.[A-Za-z0-9]{1,10}\r?\n?$/;

/**
 * Cheap test (first 50 lines only) that output is a directory listing:
 * `tree` branches, `ls -l` long format, `ls -R` blocks, or one path per line
 * (`find`, Glob, `ls`) where at least half the lines name a directory or a
 * file extension.
 */
export function looksLikeListing(lines: readonly string[]): boolean {
  const sample = lines.slice(0, INFERENCE_LINES).filter((line) => line.trim() !== "" && !NOTE.test(line));
  if (sample.length === 0) return false;
  const count = (test: (line: string) => boolean): number => sample.filter(test).length;
  if (count((line) => TREE_BRANCH.test(line)) >= Math.min(3, sample.length - 1) && sample.length > 1) return true;
  if (count((line) => LONG_FORMAT.test(line)) >= 0.8 * sample.length) return true;
  const names = count((line) => PATH_LIKE.test(line.replace(/\r?\n$/, "")) && !/\s{2}/.test(line.trimEnd()));
  const headers = count((line) => LS_HEADER.test(line));
  const pathy = count((line) => HAS_DIRECTORY_OR_EXTENSION.test(line));
  return names + headers >= 0.9 * sample.length && pathy >= 0.5 * sample.length;
}
