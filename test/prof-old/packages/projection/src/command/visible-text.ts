import { collapseRedraws, hasRedraws } from "./collapse-redraws.js";

// Lines longer than this are classified by their start (tools put the evidence first; regexes stay cheap).
const CLASSIFIED_CHARS = 2000;

/**
 * The text of a line as a terminal shows it and as the classifier reads it:
 * progress redraws collapsed to their final state, the terminator removed,
 * and at most the first 2,000 characters.
 */
export function visibleText(line: string): string {
  const shown = hasRedraws(line) ? collapseRedraws(line) : line;
  const end = shown.endsWith("\r\n") ? shown.length - 2 : shown.endsWith("\n") ? shown.length - 1 : shown.length;
  return shown.slice(0, Math.min(end, CLASSIFIED_CHARS));
}

/** How many spaces and tabs a line starts with. */
export function indentOf(text: string): number {
  let index = 0;
  while (index < text.length && (text[index] === " " || text[index] === "\t")) index++;
  return index;
}
