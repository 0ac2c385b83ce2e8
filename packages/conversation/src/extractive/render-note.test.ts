import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { isAppError } from "@loupe/errors";
import { assistantTurn, fixLoopTurns, userTurn } from "../testing/turn-builders.js";
import type { Turn } from "../turn.js";
import { emptyExtractiveState } from "./extractive-state.js";
import { foldTurns } from "./fold-turns.js";
import { renderNote } from "./render-note.js";

const HEADINGS = [
  "# Handover note (through turn:",
  "## Objective",
  "## Key decisions",
  "## Files touched and saved results",
  "## Names in play",
  "## Errors met",
  "## Current state",
  "## Next steps",
];
const TASK = "Fix the failing add() test in src/math.ts.\nKeep the public API unchanged.";

/** A session: the task, then `loops` fix loops. */
function session(loops: number): Turn[] {
  const turns: Turn[] = [userTurn(1, TASK)];
  for (let loop = 0; loop < loops; loop++) turns.push(...fixLoopTurns(turns.length + 1));
  return turns;
}

function headingPositions(note: string): number[] {
  return HEADINGS.map((heading) => note.indexOf(heading));
}

describe("renderNote()", () => {
  it("has every heading, in order, even with no facts", () => {
    const note = renderNote(emptyExtractiveState(), 0, 2000);
    const positions = headingPositions(note);
    assert.ok(
      positions.every((position, index) => position >= 0 && (index === 0 || position > (positions[index - 1] ?? 0))),
      note,
    );
    assert.ok(note.startsWith("# Handover note (through turn:0)\n"));
  });

  it("cites a turn address in every fact", () => {
    const note = renderNote(foldTurns(undefined, session(2)), 17, 10_000);
    const facts = note.split("\n").filter((line) => line.startsWith("- ") && !line.startsWith("- ("));
    assert.ok(facts.length >= 8, note);
    for (const fact of facts) assert.match(fact, /turn:\d+/);
    assert.match(note, /## Objective\nFrom turn:1:\n> Fix the failing add\(\) test in src\/math\.ts\.\n> Keep the public API unchanged\./);
  });

  it("fits any budget by dropping whole facts, oldest of the longest section first, and keeps the objective", () => {
    const state = foldTurns(undefined, session(6));
    const full = renderNote(state, 49, 1_000_000);
    const fullLines = new Set(full.split("\n"));
    fc.assert(
      fc.property(fc.integer({ min: 420, max: full.length + 100 }), (maxChars) => {
        const note = renderNote(state, 49, maxChars);
        assert.ok(note.length <= maxChars, `${String(note.length)} > ${String(maxChars)}`);
        assert.deepStrictEqual(
          headingPositions(note).map((position) => position >= 0),
          HEADINGS.map(() => true),
        );
        for (const line of note.split("\n")) if (line.startsWith("- ") && !line.startsWith("- (")) assert.ok(fullLines.has(line), `cut fact: ${line}`);
        assert.ok(note.includes("> Fix the failing add() test in src/math.ts."));
      }),
    );
  });

  it("drops the oldest decision first when decisions are the longest section", () => {
    const turns: Turn[] = [userTurn(1, "Refactor the parser.")];
    for (let seq = 2; seq <= 13; seq++)
      turns.push(assistantTurn(seq, `Decision ${String(seq)}: I'll keep the tokenizer separate because it is reused by the formatter number ${String(seq)}.`));
    const state = foldTurns(undefined, turns);
    const full = renderNote(state, 13, 100_000);
    const note = renderNote(state, 13, full.length - 200);
    assert.ok(!note.includes("Decision 2:") && note.includes("Decision 13:"), note);
  });

  it("shortens the objective only when nothing else is left, and throws when even that cannot fit", () => {
    const state = foldTurns(undefined, [userTurn(1, `${"Port the billing service to the new queue. ".repeat(14)}`)]);
    const note = renderNote(state, 1, 500);
    assert.ok(note.length <= 500 && note.includes("> Port the billing service"), note);
    assert.throws(
      () => renderNote(state, 1, 200),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
  });

  it("is deterministic", () => {
    const state = foldTurns(undefined, session(3));
    assert.equal(renderNote(state, 25, 1500), renderNote(structuredClone(state), 25, 1500));
  });
});
