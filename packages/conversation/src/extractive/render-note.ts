import { AppError } from "@loupe/errors";
import { turnAddress } from "../turn.js";
import type { ExtractiveState } from "./extractive-state.js";
import { carriedFact, noteSections, objectiveFact } from "./note-sections.js";
import type { NoteFact, NoteSection } from "./note-sections.js";
import { leadingText } from "./text-bounds.js";

/** The smallest objective text fitting keeps before it gives up (characters). */
const MIN_OBJECTIVE_CHARS = 80;

/**
 * Renders the handover note: "# Handover note (through turn:N)", then
 * "## Objective", "## Key decisions", "## Files touched and saved results", "## Names in play", "## Errors met",
 * "## Current state" and "## Next steps", always in this order and always
 * present; every fact cites its `turn:<seq>` address(es). Deterministic.
 *
 * The note fits `maxChars` (UTF-16 units): while it is too long, the oldest
 * fact of the longest section that still has a droppable fact goes, whole (a
 * fact is never cut). The objective is never dropped; only when everything
 * else is gone is it shortened, at a line or sentence end, to what fits.
 *
 * @throws AppError `invalid_argument` when `maxChars` cannot hold the headings
 * and about 80 characters of the objective.
 */
export function renderNote(state: ExtractiveState, coveredThroughSeq: number, maxChars: number): string {
  const header = `# Handover note (through ${turnAddress(coveredThroughSeq)})`;
  const sections = noteSections(state);
  while (noteLength(header, sections) > maxChars) {
    if (!dropOldest(sections)) break;
  }
  if (noteLength(header, sections) > maxChars) shortenObjective(state, header, sections, maxChars);
  const text = joinNote(header, sections);
  if (text.length > maxChars) {
    throw new AppError("invalid_argument", `note budget too small [maxChars=${String(maxChars)}, needed=${String(text.length)}]`);
  }
  return text;
}

function joinNote(header: string, sections: readonly NoteSection[]): string {
  return [header, ...sections.map(sectionText)].join("\n\n") + "\n";
}

function sectionText(section: NoteSection): string {
  const facts = section.facts.length > 0 ? section.facts.map((fact) => fact.text) : [section.empty];
  return [section.heading, ...facts].join("\n");
}

function noteLength(header: string, sections: readonly NoteSection[]): number {
  return joinNote(header, sections).length;
}

// Drops the oldest droppable fact of the longest section that has one; false when none is left.
function dropOldest(sections: NoteSection[]): boolean {
  let target: NoteSection | undefined;
  let targetLength = -1;
  for (const section of sections) {
    if (!section.facts.some((fact) => fact.droppable)) continue;
    const length = sectionText(section).length;
    if (length > targetLength) {
      target = section;
      targetLength = length;
    }
  }
  if (target === undefined) return false;
  let oldest = -1;
  target.facts.forEach((fact, index) => {
    if (fact.droppable && (oldest === -1 || fact.seq < (target.facts[oldest]?.seq ?? Infinity))) oldest = index;
  });
  target.facts.splice(oldest, 1);
  return true;
}

// Last resort: the objective (and a carried earlier note) cut, each to the same share of the room left.
function shortenObjective(state: ExtractiveState, header: string, sections: NoteSection[], maxChars: number): void {
  const objective = sections[0];
  if (objective === undefined) return;
  const sources: { text: string; fact: (text: string) => NoteFact }[] = [];
  if (state.carried !== null) {
    const through = state.carried.throughSeq;
    sources.push({ text: state.carried.text, fact: (text) => carriedFact(text, through) });
  }
  if (state.objective !== null) {
    const seq = state.objective.seqs[0] ?? 0;
    sources.push({ text: state.objective.text, fact: (text) => objectiveFact(text, seq) });
  }
  if (sources.length === 0) return;
  const rest = objective.facts.filter((fact) => fact.droppable);
  const fixed = sources.reduce((total, source) => total + source.text.length, 0);
  // Quoting adds "> " per line: shrink until the quoted texts fit.
  for (
    let budget = Math.floor((maxChars - noteLength(header, sections) + fixed) / sources.length);
    budget >= MIN_OBJECTIVE_CHARS;
    budget = Math.floor(budget * 0.9)
  ) {
    objective.facts = [...sources.map((source) => source.fact(leadingText(source.text, budget))), ...rest];
    if (noteLength(header, sections) <= maxChars) return;
  }
}
