import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { findKeywords, keywordSearch } from "./find-keywords.js";

/** What findKeywords answers, the plain way: each keyword looked for on its own. */
function naive(text: string, keywords: readonly string[]): Set<string> {
  const lower = text.toLowerCase();
  return new Set(keywords.map((keyword) => keyword.toLowerCase()).filter((keyword) => lower.includes(keyword)));
}

const keyword = fc.constantFrom("sk-", "sk-ant-", "token", "TOKEN", "api_key", "password", "Bearer", "ghp_", "a.b", "x*y", "[z]", "key");
const piece = fc.oneof(keyword, fc.string({ maxLength: 6 }), fc.constantFrom("SK-ANT-x", "Token=1", " ", "\n"));

describe("findKeywords()", () => {
  it("finds the keywords a plain search finds, ignoring case, whatever the same search found before", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(piece, { maxLength: 20 }), { minLength: 1, maxLength: 4 }),
        fc.array(keyword, { minLength: 1, maxLength: 8 }),
        (texts, keywords) => {
          // One search for several texts, as a rule set's is: what it remembers changes no answer.
          const search = keywordSearch(keywords);
          for (const text of texts.map((pieces) => pieces.join("")))
            assert.deepEqual(findKeywords(text, search), naive(text, keywords), JSON.stringify({ text, keywords }));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("finds overlapping keywords at one place, and each frequent one once", () => {
    const text = `${"token ".repeat(1000)}SK-ANT-abc`;
    assert.deepEqual(findKeywords(text, keywordSearch(["sk-", "sk-ant-", "token", "missing"])), new Set(["sk-", "sk-ant-", "token"]));
    assert.deepEqual(findKeywords("", keywordSearch(["token"])), new Set());
  });
});
