import { commandOf, isShellFileRead } from "@loupe/projection";

// Arguments of read tools that say which part of the file is read (offset/limit, line ranges, view_range, pages);
// the others (the path, an explanation, a flag) say nothing about the part.
const RANGE_KEY = /offset|limit|range|line|start|end|page/i;

/**
 * What part of a file a read covers, so that two reads are compared only when they read the same part:
 * "" for a whole-file read (a read tool without range arguments; a shell read that `isShellFileRead`
 * calls whole, such as `cat path`, `cat -n path`, `nl -ba path`), else a signature of the range —
 * the read tool's range arguments, or the shell command (`sed -n 10,20p f`, `head -50 f`).
 */
export function readScopeOf(args: Readonly<Record<string, unknown>>): string {
  const command = commandOf(args);
  if (command !== undefined && command !== "") return isShellFileRead(command)?.wholeFile === true ? "" : command.trim();
  const range = Object.entries(args)
    .filter(([key, value]) => RANGE_KEY.test(key) && value !== undefined && value !== null && value !== "")
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return range.length === 0 ? "" : JSON.stringify(range);
}
