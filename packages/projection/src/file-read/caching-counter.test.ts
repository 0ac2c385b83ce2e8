import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createTokenCounter } from "../token-counter.js";
import { createCachingCounter } from "./caching-counter.js";

const counter = createTokenCounter();

describe("createCachingCounter()", () => {
  it("answers every count and limit check exactly as the counter it wraps, in any order", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom("def f(x):\n", "  return x + 1\n", "\u{1F600}\n", "", "z".repeat(5000)), fc.integer({ min: 0, max: 40 }), fc.boolean()),
          { maxLength: 40 },
        ),
        (calls) => {
          const caching = createCachingCounter(counter);
          for (const [text, limit, exact] of calls) {
            if (exact) assert.equal(caching.count(text), counter.count(text));
            else assert.equal(caching.within(text, limit), counter.within(text, limit));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("counts long texts by their segments exactly as the counter does, limits included", () => {
    const line = fc.constantFrom("def f(x):\n", "  return x + 1\n", "/usr/lib/x\n", "}\n", "\n", "   \n", "\u00a0x\n", "\u{1F600} é\n", "a".repeat(300) + "\n");
    fc.assert(
      fc.property(fc.array(line, { minLength: 20, maxLength: 80 }), fc.integer({ min: 0, max: 600 }), (lines, limit) => {
        const text = lines.join("");
        const caching = createCachingCounter(counter);
        assert.equal(caching.within(text, limit), counter.within(text, limit));
        assert.equal(caching.count(text), counter.count(text));
        assert.equal(caching.within(text, limit), counter.within(text, limit));
      }),
      { numRuns: 200 },
    );
  });

  it("returns a caching counter unchanged when wrapped again", () => {
    const caching = createCachingCounter(counter);
    assert.equal(createCachingCounter(caching), caching);
  });
});
