import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createCachingCounter } from "./file-read/caching-counter.js";
import { projectResult, type ResultInput } from "./project-result.js";
import { shellResult } from "./testing/shell-result.js";
import { createTokenCounter, type TokenCounter } from "./token-counter.js";

const exact = createTokenCounter();

const input = (text: string): ResultInput => shellResult(text);

/** A counter that refuses to count `forbidden` whole. */
function refusing(forbidden: string): TokenCounter {
  return {
    encoding: exact.encoding,
    count: (text) => (text === forbidden ? assert.fail("counted the whole text") : exact.count(text)),
    within: (text, limit) => (text === forbidden ? assert.fail("checked the whole text") : exact.within(text, limit)),
  };
}

const log = Array.from({ length: 300 }, (_, index) => `[${String(index)}] compiling src/feature${String(index)}.ts ... ok\n`).join("");

describe("projectResult() token counts", () => {
  it("reports the count of a text that fits", () => {
    const text = "one\ntwo\nthree\n";
    const view = projectResult(input(text), { budgetTokens: 100, maxViewBytes: 1000, counter: exact, resultId: "", view: "" });
    assert.equal(view.unchanged, true);
    assert.equal(view.tokens, exact.count(text));
  });

  it("reports no count for a view it cut", () => {
    const view = projectResult(input(log), { budgetTokens: 200, maxViewBytes: 50_000, counter: exact, resultId: "r_x", view: "" });
    assert.equal(view.unchanged, false);
    assert.equal(view.tokens, undefined);
  });

  it("decides the fit from textTokens without counting the text", () => {
    const tokens = exact.count(log);
    const options = { maxViewBytes: 50_000, resultId: "r_x", view: "" };
    const fits = projectResult(input(log), { ...options, counter: refusing(log), budgetTokens: tokens, textTokens: tokens });
    assert.deepEqual(fits, { text: log, omissions: [], unchanged: true, kind: "command", tokens });
    const cut = projectResult(input(log), { ...options, counter: exact, budgetTokens: tokens - 1, textTokens: tokens });
    assert.deepEqual(cut, projectResult(input(log), { ...options, counter: exact, budgetTokens: tokens - 1 }));
  });

  it("still applies the byte cap to a text whose tokens fit", () => {
    const view = projectResult(input(log), {
      budgetTokens: 100_000,
      maxViewBytes: 1000,
      counter: exact,
      resultId: "r_x",
      view: "",
      textTokens: exact.count(log),
    });
    assert.equal(view.unchanged, false);
  });

  it("uses a caching counter as given, so its cache serves the view's count afterwards", () => {
    const calls: string[] = [];
    const caching = createCachingCounter({
      encoding: exact.encoding,
      count: (text) => (calls.push(text), exact.count(text)),
      within: (text, limit) => (calls.push(text), exact.within(text, limit)),
    });
    const view = projectResult(input(log), { budgetTokens: 200, maxViewBytes: 50_000, counter: caching, resultId: "r_x", view: "" });
    const before = calls.length;
    assert.equal(caching.count(view.text), exact.count(view.text));
    assert.ok(calls.length - before <= 2, `view counted again from the cache (${String(calls.length - before)} new counts)`);
  });
});
