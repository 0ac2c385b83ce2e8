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
