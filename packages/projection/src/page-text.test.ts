import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createTokenCounter, pageText } from "./index.js";

const counter = createTokenCounter();

describe("pageText()", () => {
  it("pages any text to the end within budget, always advancing, joining back to the original", () => {
    const text = fc
      .array(fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("\n", "\r\n", "\u{1F600}".repeat(50), "y".repeat(500))), { maxLength: 80 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 300 }), (original, budget) => {
        let rest = original;
        let joined = "";
        let pages = 0;
        while (rest !== "") {
          const page = pageText(rest, budget, counter, true);
          assert.ok(page.text.length > 0, "advances");
          assert.ok(rest.startsWith(page.text));
          const isSingleChar = [...page.text].length === 1;
          assert.ok(counter.count(page.text) <= budget || isSingleChar, "within budget unless one character");
          joined += page.text;
          rest = rest.slice(page.text.length);
          pages++;
        }
        assert.equal(joined, original);
        assert.ok(pages <= original.length);
      }),
      { numRuns: 150 },
    );
  });

  it("serves whole lines when they fit and never a cut-off last line of an incomplete window", () => {
    assert.deepEqual(pageText("a\nb\nc", 100, counter, false), { text: "a\nb\n", wholeLines: true });
    assert.deepEqual(pageText("a\nb\nc", 100, counter, true), { text: "a\nb\nc", wholeLines: true });
    const long = "word ".repeat(1000);
    const page = pageText(long + "\n", 50, counter, true);
    assert.equal(page.wholeLines, false);
    assert.ok(counter.count(page.text) <= 50 && page.text.length > 100);
  });
});
