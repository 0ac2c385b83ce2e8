import { isShellFileRead } from "../file-read/is-shell-file-read.js";
import { shellWords, type ShellWords } from "../kinds/shell-words.js";

const SEARCH_PROGRAMS = new Set(["grep", "egrep", "fgrep", "rg", "ag"]);
// Options whose value is the next word.
const TAKES_VALUE = new Set([
  "-e",
  "-f",
  "-A",
  "-B",
  "-C",
  "-m",
  "-g",
  "-t",
  "-T",
  "--max-count",
  "--glob",
  "--type",
  "--regexp",
  "--file",
  "--context",
  "--after-context",
  "--before-context",
]);

/**
 * The one file a search command searches, when it names exactly one and does
 * not recurse: `grep -n x F`, `cat F | grep -n x`. Such output carries no file
 * names ("12:text"), so the view takes the name from here. Undefined
 * otherwise. Pure.
 */
export function searchedFileOf(command: string): string | undefined {
  const pipelines = shellWords(command);
  const last = pipelines?.[pipelines.length - 1];
  if (last === undefined) return undefined;
  const index = last.findIndex((words) => SEARCH_PROGRAMS.has(words[0] ?? ""));
  const search = last[index];
  if (search === undefined) return undefined;
  if (index > 0) return index === 1 ? isShellFileRead(last[0]?.join(" ") ?? "")?.path : undefined;
  return singleOperand(search);
}

function singleOperand(words: ShellWords): string | undefined {
  const operands: string[] = [];
  let patternIsOperand = true;
  for (let index = 1; index < words.length; index++) {
    const word = words[index] ?? "";
    if (word === "--") {
      operands.push(...words.slice(index + 1));
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      operands.push(word);
      continue;
    }
    if (word === "-r" || word === "-R" || word === "--recursive" || /^-[a-zA-Z]*[rR]/.test(word)) return undefined;
    if (word === "-e" || word === "--regexp" || word.startsWith("--regexp=") || /^-e./.test(word)) patternIsOperand = false;
    if (TAKES_VALUE.has(word)) index++;
  }
  const files = patternIsOperand ? operands.slice(1) : operands;
  return files.length === 1 ? files[0] : undefined;
}
