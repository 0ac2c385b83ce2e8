import type { Recovery } from "./policy.js";

/** Most matching lines one read-tool search returns. */
export const MAX_SEARCH_LINES = 20;

/**
 * The recovery of a policy that saved the output to a file: one search of the
 * file for the evidence string (a fixed-string grep), answered `N:line` for up
 * to {@link MAX_SEARCH_LINES} matching lines.
 */
export function searchSavedOutput(output: string, evidence: string): Recovery {
  const lines = output.split("\n");
  const hits: string[] = [];
  for (let index = 0; index < lines.length && hits.length < MAX_SEARCH_LINES; index++) {
    const line = lines[index] ?? "";
    if (line.includes(evidence)) hits.push(`${String(index + 1)}:${line}`);
  }
  // Evidence spanning lines is not found line by line, but the saved file still holds it.
  const found = hits.length > 0 || output.includes(evidence);
  return { found, answer: hits.join("\n") };
}
