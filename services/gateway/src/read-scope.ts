import { commandOf } from "@loupe/projection";

// A whole-file shell read: `cat path` or `nl path` and nothing else.
const WHOLE_FILE_COMMAND = /^\s*(?:cat|nl(?:\s+-ba)?)\s+(?:"[^"]+"|'[^']+'|[^\s|;&<>]+)\s*$/;
// Arguments of read tools that name the file, not the part of it read.
const PATH_KEYS = new Set(["path", "file_path", "filePath", "notebook_path", "file", "filename", "absolute_path", "target_file"]);

/**
 * What part of a file a read covers, so that two reads are compared only when they read the same part:
 * "" for a whole-file read (a read tool without a range, `cat path`), else a signature of the range —
 * the read tool's other arguments, or the shell command (`sed -n 10,20p f`, `head -50 f`).
 */
export function readScopeOf(args: Readonly<Record<string, unknown>>): string {
  const command = commandOf(args);
  if (command !== undefined && command !== "") return WHOLE_FILE_COMMAND.test(command) ? "" : command.trim();
  const range = Object.entries(args)
    .filter(([key, value]) => !PATH_KEYS.has(key) && value !== undefined && value !== null && value !== "")
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return range.length === 0 ? "" : JSON.stringify(range);
}
