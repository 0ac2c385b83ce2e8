import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Declaration } from "./declaration-map.js";
import { declarationsByIntent } from "./declarations-by-intent.js";

const declaration = (index: number, level: number, label = `def at_${String(index)}`): Declaration => ({ index, level, label });

/** The same ranking the slow way: each span found by scanning forward, each weight by summing every score in it. */
function reference(declarations: readonly Declaration[], scores: ReadonlyMap<number, number>, lineCount: number): Declaration[] {
  const weighed = declarations.map((current, position) => {
    const end = declarations.slice(position + 1).find((next) => next.level <= current.level)?.index ?? lineCount;
    let weight = 0;
    for (const line of [...scores.keys()].sort((a, b) => a - b)) if (line >= current.index && line < end) weight += scores.get(line) ?? 0;
    return { current, weight };
  });
  return weighed
    .filter(({ weight }) => weight > 0)
    .sort((a, b) => b.weight - a.weight || a.current.index - b.current.index)
    .map(({ current }) => current);
}

describe("declarationsByIntent()", () => {
  // class Loader (0) holds load (2) and save (5); helper (8) is outside it; Saver (10) holds write (11).
  const declarations = [declaration(0, 0), declaration(2, 4), declaration(5, 4), declaration(8, 0), declaration(10, 0), declaration(11, 4)];

  it("weighs a declaration by the matched lines in its span: a class holds its methods, a method ends at the next one", () => {
    const scores = new Map([
      [3, 2], // in load
      [6, 5], // in save
      [9, 1], // in helper
    ]);
    assert.deepEqual(
      declarationsByIntent(declarations, scores, 14).map(({ index }) => index),
      [0, 5, 2, 8],
      "Loader 7, save 5, load 2, helper 1; Saver and write hold no matched line",
    );
  });

  it("counts a match on the declaration's own line, breaks ties by position, and answers nothing without matches", () => {
    assert.deepEqual(
      declarationsByIntent(declarations, new Map([[11, 3]]), 14).map(({ index }) => index),
      [10, 11],
      "Saver and write weigh the same: the earlier first",
    );
    assert.deepEqual(declarationsByIntent(declarations, new Map(), 14), []);
    assert.deepEqual(declarationsByIntent([], new Map([[1, 1]]), 14), []);
    assert.deepEqual(declarationsByIntent([declaration(2, 0), declaration(5, 0)], new Map([[1, 4]]), 8), [], "above the first declaration");
  });

  it("ranks as summing every span's scores the slow way would (random files)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ gap: fc.integer({ min: 1, max: 6 }), level: fc.constantFrom(0, 2, 4, 8) }), { maxLength: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 50 })), { maxLength: 60 }),
        (shape, scored) => {
          let at = 0;
          const found = shape.map(({ gap, level }) => declaration((at += gap), level));
          const lineCount = at + 10;
          const scores = new Map(scored.filter(([line]) => line < lineCount).map(([line, score]) => [line, score / 4]));
          assert.deepEqual(declarationsByIntent(found, scores, lineCount), reference(found, scores, lineCount));
        },
      ),
    );
  });
});
