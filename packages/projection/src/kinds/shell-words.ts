import { parseShellStrict } from "./parse-shell.js";

/** One simple command's words, quotes removed and redirections left out. */
export type ShellWords = string[];

/**
 * The words of each simple command of each pipeline of a command line (see parseShellStrict):
 * undefined when the line holds command substitution, subshells, here-documents or an unclosed
 * quote, which words alone do not tell. Pure.
 */
export function shellWords(command: string): ShellWords[][] | undefined {
  return parseShellStrict(command)?.map((pipeline) => pipeline.map((simple) => simple.words));
}
