import { turnAddress } from "../turn.js";
import type { CallFact, ErrorFact, ExtractiveState, FileFact, NameFact, ResultFact } from "./extractive-state.js";
import { LIMITS } from "./extractive-state.js";

/** One fact of a note section: its text (one line, or a quoted block), the turn it ages by, whether fitting may drop it. */
export interface NoteFact {
  text: string;
  seq: number;
  droppable: boolean;
}

/** A note section: a stable heading and its facts in display order. */
export interface NoteSection {
  heading: string;
  facts: NoteFact[];
  /** Shown when the section has no facts. */
  empty: string;
}

/** The note's section headings, in order. */
export const SECTION_HEADINGS = [
  "## Objective",
  "## Key decisions",
  "## Files touched and saved results",
  "## Names in play",
  "## Errors met",
  "## Current state",
  "## Next steps",
] as const;

/** `(turn:3, turn:9)`. */
function cite(seqs: readonly number[]): string {
  return `(${seqs.map(turnAddress).join(", ")})`;
}

/** A block of text quoted line by line, so its own Markdown cannot open a section. */
export function quoted(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** The objective fact: the first user text quoted, with its address. */
export function objectiveFact(text: string, seq: number): NoteFact {
  return { text: `From ${turnAddress(seq)}:\n${quoted(text)}`, seq, droppable: false };
}

/** The fact of an earlier note carried over from another author: its text quoted, with the turn it covered through. */
export function carriedFact(text: string, throughSeq: number): NoteFact {
  return { text: `From the previous note (through ${turnAddress(throughSeq)}):\n${quoted(text)}`, seq: throughSeq, droppable: false };
}

/** The sections of a note, every fact with its full text, in the fixed order of {@link SECTION_HEADINGS}. */
export function noteSections(state: ExtractiveState): NoteSection[] {
  const objective: NoteFact[] = [];
  if (state.carried !== null) objective.push(carriedFact(state.carried.text, state.carried.throughSeq));
  if (state.objective !== null) objective.push(objectiveFact(state.objective.text, state.objective.seqs[0] ?? 0));
  for (const request of state.requests)
    objective.push({ text: `- Later user message ${cite([request.seq])}: ${request.text}`, seq: request.seq, droppable: true });
  return [
    { heading: SECTION_HEADINGS[0], facts: objective, empty: "- (no user message yet)" },
    {
      heading: SECTION_HEADINGS[1],
      facts: state.decisions.map((decision) => ({ text: `- ${decision.text} ${cite(decision.seqs)}`, seq: last(decision.seqs), droppable: true })),
      empty: "- (none recorded)",
    },
    { heading: SECTION_HEADINGS[2], facts: [...state.files.map(fileFact), ...(state.results ?? []).map(resultFact)], empty: "- (none)" },
    { heading: SECTION_HEADINGS[3], facts: nameFacts(state), empty: "- (none)" },
    { heading: SECTION_HEADINGS[4], facts: state.errors.map(errorFact), empty: "- (none)" },
    { heading: SECTION_HEADINGS[5], facts: currentFacts(state), empty: "- (nothing yet)" },
    { heading: SECTION_HEADINGS[6], facts: nextFacts(state), empty: "- (none stated)" },
  ];
}

// The names, one line per turn that last used them, most recent first; within a line, most used first.
function nameFacts(state: ExtractiveState): NoteFact[] {
  const bySeq = new Map<number, NameFact[]>();
  for (const fact of state.names ?? []) bySeq.set(fact.seq, [...(bySeq.get(fact.seq) ?? []), fact]);
  return [...bySeq.entries()]
    .sort(([a], [b]) => b - a)
    .map(([seq, facts]) => {
      const names = facts.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((fact) => fact.name);
      return { text: `- ${names.join(", ")} ${cite([seq])}`, seq, droppable: true };
    });
}

function fileFact(file: FileFact): NoteFact {
  const access = file.access.map((seen) => `${seen.kind} ${cite(seen.seqs)}`).join("; ");
  return { text: `- ${file.path} — ${access}`, seq: Math.max(0, ...file.access.map((seen) => last(seen.seqs))), droppable: true };
}

// A saved output: the whole of it is one Recover (or read_result) away.
function resultFact(result: ResultFact): NoteFact {
  const what = result.path === "" ? result.toolName : `${result.toolName} ${result.path}`;
  return {
    text: `- Saved output of ${what} ${cite([result.seq])}: result ${result.resultId} (${result.kind}, ${String(result.originalTokens)} tokens; read it whole with read_result)`,
    seq: result.seq,
    droppable: true,
  };
}

function errorFact(error: ErrorFact): NoteFact {
  const status = error.resolvedSeq === null ? "unresolved" : `resolved ${cite([error.resolvedSeq])}`;
  return { text: `- ${error.call}: ${error.line} ${cite(error.seqs)} — ${status}`, seq: last(error.seqs), droppable: true };
}

function currentFacts(state: ExtractiveState): NoteFact[] {
  const facts: NoteFact[] = [];
  if (state.latest !== null)
    facts.push({ text: `- Last assistant message ${cite([state.latest.seq])}: ${state.latest.text}`, seq: state.latest.seq, droppable: true });
  const answered = state.calls.filter((call) => call.outcome !== "pending").slice(-LIMITS.recentCalls);
  for (const call of answered) facts.push({ text: `- Call ${callCite(call)}: ${call.summary} → ${outcomeText(call)}`, seq: call.seq, droppable: true });
  return facts;
}

function nextFacts(state: ExtractiveState): NoteFact[] {
  const facts: NoteFact[] = [];
  for (const item of state.todos) facts.push({ text: `- Plan: ${item.text} ${cite([item.seq])}`, seq: item.seq, droppable: true });
  for (const step of state.nextSteps) facts.push({ text: `- ${step.text} ${cite([step.seq])}`, seq: step.seq, droppable: true });
  for (const call of state.calls)
    if (call.outcome === "pending") facts.push({ text: `- Awaiting the result of ${call.summary} ${cite([call.seq])}`, seq: call.seq, droppable: true });
  return facts;
}

function callCite(call: CallFact): string {
  return call.resultSeq === null ? cite([call.seq]) : `(${turnAddress(call.seq)} → ${turnAddress(call.resultSeq)})`;
}

function outcomeText(call: CallFact): string {
  return call.outcome === "lost" ? "no result" : call.outcome;
}

function last(seqs: readonly number[]): number {
  return seqs[seqs.length - 1] ?? 0;
}
