import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createTokenCounter } from "../token-counter.js";
import { intentBlocks } from "./intent-blocks.js";
import type { IntentMatches } from "./match-intent.js";

const counter = createTokenCounter();

const matchesOf = (ranked: readonly number[]): IntentMatches => ({ ranked, scores: new Map(), terms: [], bodies: new Map() });

/** What keeping `chosen` beside `expected` really costs: the chosen lines' tokens, plus the gap notices added (or less those removed). */
function trueCost(lines: readonly string[], expected: Uint8Array, chosen: readonly number[], gapTokens: number): number {
  const after = expected.slice();
  for (const index of chosen) after[index] = 1;
  const gaps = (mask: Uint8Array): number => mask.reduce((count, kept, index) => count + (kept === 0 && (index === 0 || mask[index - 1] === 1) ? 1 : 0), 0);
  const tokens = chosen.reduce((sum, index) => sum + counter.count(lines[index] ?? ""), 0);
  return tokens + (gaps(after) - gaps(expected)) * gapTokens;
}

describe("intentBlocks", () => {
  it("charges a window inside lines already kept nothing, so dense matches stay within their tokens", () => {
    const lines = Array.from({ length: 400 }, (_, index) => `    value_${String(index)} = compute(value_${String(index - 1)}, factor)`);
    // Lines 0, 30 and 15 join into one kept run (0–50); the windows of 16–29 lie inside it, then 100, 200 and 300 are new.
    const ranked = [0, 30, 15, ...Array.from({ length: 14 }, (_, index) => 16 + index), 100, 200, 300];
    const first = intentBlocks({ lines, matches: matchesOf([0, 30, 15]), counter, gapTokens: 40, maxTokens: 100_000, before: 3, after: 20, priority: 0 });
    const maxTokens = trueCost(lines, new Uint8Array(lines.length), first.chosen, 40) + 50;
    const { chosen } = intentBlocks({ lines, matches: matchesOf(ranked), counter, gapTokens: 40, maxTokens, before: 3, after: 20, priority: 0 });
    assert.deepEqual(
      chosen.filter((index) => index > 50),
      [],
    );
    const cost = trueCost(lines, new Uint8Array(lines.length), chosen, 40);
    assert.ok(cost <= maxTokens, `${String(cost)} tokens chosen of ${String(maxTokens)}`);
  });

  it("never chooses lines costing more than maxTokens, whatever is kept already and wherever the matches are", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 120 }),
        // Hits in any order, often close together: windows overlap, join runs and fall inside them.
        fc.array(fc.nat({ max: 60 }), { maxLength: 60 }),
        fc.array(fc.boolean(), { maxLength: 120 }),
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 1, max: 60 }),
        fc.nat({ max: 5 }),
        fc.nat({ max: 25 }),
        (lines, hits, keptFlags, maxTokens, gapTokens, before, after) => {
          const expected = new Uint8Array(lines.length);
          keptFlags.forEach((kept, index) => {
            if (kept && index < lines.length) expected[index] = 1;
          });
          const ranked = [...new Set(hits.map((hit) => hit % lines.length))];
          const { chosen, blocks } = intentBlocks({ lines, matches: matchesOf(ranked), counter, gapTokens, maxTokens, before, after, priority: 0, expected });
          assert.equal(blocks.length, chosen.length);
          assert.ok(chosen.every((index) => expected[index] === 0));
          assert.ok(trueCost(lines, expected, chosen, gapTokens) <= maxTokens);
        },
      ),
      { numRuns: 300 },
    );
  });
});
