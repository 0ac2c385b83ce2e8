import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Turn } from "../turn.js";
import { planCompaction } from "./plan-compaction.js";

const turns = (tokens: number[]): Turn[] =>
  tokens.map((tokenCount, index) => ({
    seq: index + 1,
    role: index % 2 === 0 ? "user" : "assistant",
    parts: [{ type: "text", text: "x" }],
    toolCalls: [],
    toolResults: [],
    tokenCount,
  }));

describe("planCompaction", () => {
  it("is prepared when the note and the uncovered turns fit, with the note's watermark", () => {
    const plan = planCompaction({
      contextLimitTokens: 10_000,
      reserveTokens: 1000,
      prefixTokens: 500,
      note: { coveredThroughSeq: 40, tokens: 800 },
      uncovered: turns([100, 200]),
    });
    assert.equal(plan.path, "prepared");
    if (plan.path !== "prepared") return;
    assert.equal(plan.watermarkSeq, 40);
    assert.equal(plan.tokens, 1600);
  });

  it("falls back when the note lags, keeping the most recent turns and folding the older ones", () => {
    const plan = planCompaction({
      contextLimitTokens: 10_000,
      reserveTokens: 0,
      prefixTokens: 0,
      note: { coveredThroughSeq: 0, tokens: 0 },
      uncovered: turns([4000, 4000, 3000, 2000]),
    });
    assert.equal(plan.path, "fallback");
    if (plan.path !== "fallback") return;
    assert.deepEqual(
      plan.summarize.map((t) => t.seq),
      [1, 2],
    );
    assert.deepEqual(
      plan.keep.map((t) => t.seq),
      [3, 4],
    );
  });

  it("refuses when the prefix alone does not fit", () => {
    assert.equal(
      planCompaction({ contextLimitTokens: 1000, reserveTokens: 500, prefixTokens: 600, note: undefined, uncovered: turns([1]) }).path,
      "impossible",
    );
  });

  it("never plans a context over the room: prepared sums fit, fallback keeps + note budget fit, and something is folded", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 200_000 }),
        fc.integer({ min: 0, max: 900 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
        fc.array(fc.integer({ min: 1, max: 30_000 }), { minLength: 1, maxLength: 60 }),
        (limit, reserve, prefix, note, sizes) => {
          const plan = planCompaction({
            contextLimitTokens: limit,
            reserveTokens: reserve,
            prefixTokens: prefix,
            note: note === undefined ? undefined : { coveredThroughSeq: 0, tokens: note },
            uncovered: turns(sizes),
          });
          if (plan.path === "prepared") assert.ok(plan.tokens - prefix <= plan.room);
          if (plan.path === "fallback") {
            const keptTokens = plan.keep.reduce((total, turn) => total + turn.tokenCount, 0);
            assert.ok(keptTokens + plan.noteBudgetTokens <= plan.room);
            assert.ok(plan.summarize.length >= 1);
            assert.deepEqual(
              [...plan.summarize, ...plan.keep].map((t) => t.seq),
              sizes.map((_, index) => index + 1),
            );
          }
        },
      ),
    );
  });
});
