/** What one line of grep / rg output is. */
export const GREP_LINE = { other: 0, hit: 1, context: 2, separator: 3, heading: 4 } as const;

/** grep / rg output taken apart: per line its role and file, per file its hits. */
export interface GrepOutput {
  /** Per line, one of {@link GREP_LINE}. */
  roles: Uint8Array;
  /** Per line, the index into `files` of the file it belongs to; -1 for none. */
  fileOf: Int32Array;
  /** File names in order of first appearance, as printed ("" for the one unnamed file of a single-file grep). */
  files: string[];
  /** Per file, its hit lines' indices in order. */
  hits: number[][];
}
