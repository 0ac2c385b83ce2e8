import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import type { TokenCounter } from "../token-counter.js";
import { createTokenCounter } from "../token-counter.js";
import { selectLines, type LineBlock } from "./select-lines.js";

const base = createTokenCounter();
const lines = splitLines(Array.from({ length: 40 }, (_, index) => (index % 10 === 5 ? `${"wide ".repeat(60)}\n` : `line ${String(index)}\n`)).join(""));

// Counts how many lines the selection tried, to tell a group that stopped from one that went on.
function counting(): { counter: TokenCounter; tried: () => number } {
  let tried = 0;
  return {
    counter: {
      ...base,
      within: (text, limit) => {
        tried++;
        return base.within(text, limit);
      },
    },
    tried: () => tried,
  };
}

const select = (blocks: LineBlock[], counter: TokenCounter): Uint8Array =>
  selectLines({ lines, blocks, budgetTokens: 40, maxViewBytes: 10_000, counter, reservedTokens: 0, reservedBytes: 0, gapTokens: 5, gapBytes: 20 }).kept;

describe("selectLines() groups of head blocks", () => {
  it("a head block of a group that stops at a line that does not fit stops the rest of its group", () => {
    // Ranges of one walk: lines 0–9, 10–19, 20–29, 30–39. The wide line 5 does not fit; nothing may skip past it.
    const ranges = [0, 10, 20, 30].map((start): LineBlock => ({ start, end: start + 10, priority: 0, take: "head" }));
    const grouped = counting();
    const kept = select(
      ranges.map((block) => ({ ...block, group: "walk" })),
      grouped.counter,
    );
    assert.deepEqual(
      [...kept.keys()].filter((index) => kept[index] === 1),
      [0, 1, 2, 3, 4],
    );
    // Without the group every range starts again after the one that stopped.
    const apart = counting();
    const loose = select(ranges, apart.counter);
    assert.ok(loose[10] === 1, "an ungrouped block goes on");
    assert.ok(grouped.tried() < apart.tried());
  });

  it("a block of the group that reaches its end lets the next one go on", () => {
    const kept = select(
      [
        { start: 0, end: 3, priority: 0, take: "head", group: "walk" },
        { start: 20, end: 24, priority: 0, take: "head", group: "walk" },
      ],
      base,
    );
    assert.deepEqual(
      [...kept.keys()].filter((index) => kept[index] === 1),
      [0, 1, 2, 20, 21, 22, 23],
    );
  });
});
