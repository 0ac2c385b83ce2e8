import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createTokenCounter } from "../token-counter.js";
import { createCachingCounter } from "./caching-counter.js";

const counter = createTokenCounter();

describe("createCachingCounter()", () => {
  it("answers every count and limit check exactly as the counter it wraps, in any order", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("def f(x):\n", "  return x + 1\n", "\u{1F600}\n", "", "z".repeat(5000)), fc.integer({ min: 0, max: 40 }), fc.boolean()), { maxLength: 40 }), (calls) => {
        const caching = createCachingCounter(counter);
        for (const [text, limit, exact] of calls) {
          if (exact) assert.equal(caching.count(text), counter.count(text));
          else assert.equal(caching.within(text, limit), counter.within(text, limit));
        }
      }),
      { numRuns: 200 },
    );
  });
});
