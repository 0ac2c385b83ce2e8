import { looksLikeNumberedFile, printedLineNumber } from "../file-read/looks-like-numbered-file.js";
import type { IntentTerm } from "./intent-terms.js";

/**
 * In a file printed with line numbers (`nl`, `cat -n`, a read tool), a number
 * of the intent ("line 485", "lines 146-147") names a line: that line's score
 * gains what a term found on it alone would give (the number's prior times
 * log2(1 + lines)), on top of the places the number occurs as text. Other
 * outputs are left as they are. Pure.
 */
export function scoreLineReferences(scores: Map<number, number>, lines: readonly string[], terms: readonly IntentTerm[]): void {
  const numbers = terms.filter((term) => term.kind === "number");
  if (numbers.length === 0 || !looksLikeNumberedFile(lines)) return;
  const priors = new Map(numbers.map((term) => [Number(term.text), term.prior]));
  const alone = Math.log2(1 + lines.length);
  lines.forEach((line, index) => {
    const printed = printedLineNumber(line);
    const prior = printed === undefined ? undefined : priors.get(printed);
    if (prior !== undefined) scores.set(index, (scores.get(index) ?? 0) + prior * alone);
  });
}

/**
 * Adds to each scored line `weight` times the scores of the scored lines
 * within `radius` of it (its own excepted), from the scores as they were:
 * a line among other matches outranks a lone match of the same score. Pure.
 */
export function addNeighbourScores(scores: Map<number, number>, radius: number, weight: number): void {
  if (weight <= 0 || radius <= 0) return;
  const own = new Map(scores);
  for (const [line, score] of own) {
    let around = 0;
    for (let offset = -radius; offset <= radius; offset++) if (offset !== 0) around += own.get(line + offset) ?? 0;
    scores.set(line, score + weight * around);
  }
}
