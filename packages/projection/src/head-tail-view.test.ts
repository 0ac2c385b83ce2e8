import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { projectHeadTail } from "./head-tail-view.js";
import { createTokenCounter, splitLines } from "./index.js";

const counter = createTokenCounter();
const lineArbitrary = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", "\r", "error: boom\r", "\u{1F600} astral", "\uFFFD replacement", "x".repeat(3000)),
);
const textArbitrary = fc
  .tuple(fc.array(lineArbitrary, { maxLength: 400 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([lines, ending, finalNewline]) => lines.join(ending) + (finalNewline && lines.length > 0 ? ending : ""));

function reconstruct(original: string, viewText: string, startLine: number, endLine: number): string {
  const lines = splitLines(original);
  const viewLines = splitLines(viewText);
  const head = startLine - 1;
  const tail = lines.length - endLine;
  return viewLines.slice(0, head).join("") + lines.slice(startLine - 1, endLine).join("") + viewLines.slice(viewLines.length - tail).join("");
}

describe("projectHeadTail()", () => {
  it("returns text that fits unchanged", () => {
    const view = projectHeadTail("hello\nworld\n", { budgetTokens: 100, maxViewBytes: 50_000, counter, resultId: "r_1" });
    assert.deepEqual(view, { text: "hello\nworld\n", omissions: [], unchanged: true });
  });

  it("is bounded, keeps whole lines, and the omission plus the view rebuild the original", () => {
    fc.assert(
      fc.property(textArbitrary, fc.integer({ min: 60, max: 600 }), (text, budget) => {
        const options = { budgetTokens: budget, maxViewBytes: 4000, counter, resultId: "r_x" };
        const view = projectHeadTail(text, options);
        assert.ok(counter.count(view.text) <= budget, "within the token budget");
        assert.ok(new TextEncoder().encode(view.text).byteLength <= 4000, "within the byte cap");
        if (view.unchanged) {
          assert.equal(view.text, text);
          return;
        }
        const [omission] = view.omissions;
        assert.ok(omission);
        assert.ok(omission.startLine >= 1 && omission.endLine >= omission.startLine);
        assert.equal(reconstruct(text, view.text, omission.startLine, omission.endLine), text, "view + omitted lines = original");
        const lines = splitLines(text);
        const viewLines = splitLines(view.text);
        const head = omission.startLine - 1;
        const tail = lines.length - omission.endLine;
        // Kept lines are verbatim; the notice is one line starting with "[loupe".
        assert.deepEqual(viewLines.slice(0, head), lines.slice(0, head));
        assert.ok(viewLines[head]?.startsWith("[loupe"));
        assert.deepEqual(viewLines.slice(viewLines.length - tail), tail === 0 ? [] : lines.slice(lines.length - tail));
        assert.deepEqual(JSON.parse(omission.continuationJson), { result_id: "r_x", start_line: omission.startLine, end_line: omission.endLine });
        // Deterministic: the same input gives the same bytes.
        assert.deepEqual(projectHeadTail(text, options), view);
      }),
      { numRuns: 150 },
    );
  });

  it("names the omitted range of a 5,000-line text and keeps head and tail", () => {
    const text = Array.from({ length: 5000 }, (_, index) => `line ${String(index + 1)}: value=${String(index * 7)}\n`).join("");
    const view = projectHeadTail(text, { budgetTokens: 2000, maxViewBytes: 50_000, counter, resultId: "r_abc" });
    const [omission] = view.omissions;
    assert.ok(omission);
    assert.ok(view.text.startsWith("line 1: value=0\n"));
    assert.ok(view.text.endsWith("line 5000: value=34993\n"));
    assert.match(omission.description, /^\[loupe\] lines [\d,]+–[\d,]+ of 5,000 omitted; recover with \{"result_id":"r_abc"/);
    assert.ok(counter.count(view.text) <= 2000);
    assert.ok(counter.count(view.text) > 1500, "uses most of the budget");
  });

  it("offers no continuation when nothing was saved", () => {
    const text = "a line\n".repeat(5000);
    const view = projectHeadTail(text, { budgetTokens: 200, maxViewBytes: 50_000, counter, resultId: "" });
    assert.equal(view.omissions[0]?.continuationJson, "");
    assert.match(view.text, /could not be saved/);
  });
});
