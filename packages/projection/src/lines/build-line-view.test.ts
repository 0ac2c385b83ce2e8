import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { createTokenCounter } from "../token-counter.js";
import { buildLineView } from "./build-line-view.js";
import { lineGapNotice } from "./gap-notice.js";
import type { LineBlock } from "./select-lines.js";

const counter = createTokenCounter();
const RESULT_ID = "r_0123456789abcdefghijABCDEFGHIJ_-";
const text = Array.from({ length: 400 }, (_, index) => `line ${String(index + 1)}: some ordinary output of a long run\n`).join("");
const lines = splitLines(text);
const blocks: LineBlock[] = [
  { start: 0, end: lines.length - 1, priority: 0, take: "head" },
  { start: 1, end: lines.length, priority: 1, take: "tail" },
];
// A notice of about 60 tokens naming how many lines the selection left out.
const notice = (kept: Uint8Array): string =>
  `[loupe] ${String(kept.length - kept.reduce((sum, value) => sum + value, 0))} lines left out; ${"words of a long notice ".repeat(12)}`;

function build(selectionNoticeTokens: number | undefined): { calls: number; view: ReturnType<typeof buildLineView> } {
  let calls = 0;
  const view = buildLineView(lines, blocks, {
    budgetTokens: 500,
    maxViewBytes: 50_000,
    counter,
    describeGap: lineGapNotice(RESULT_ID, ""),
    selectionNotice: (kept) => {
      calls++;
      return notice(kept);
    },
    ...(selectionNoticeTokens === undefined ? {} : { selectionNoticeTokens }),
  });
  return { calls, view };
}

describe("buildLineView() with room kept for its selection notice", () => {
  it("selects once when the room kept up front holds the notice, twice when the notice had to be made room for", () => {
    const reserved = build(80);
    const grown = build(undefined);
    assert.equal(reserved.calls, 1);
    assert.equal(grown.calls, 2);
    for (const { view } of [reserved, grown]) {
      checkLineView(text, view, { budgetTokens: 500, maxViewBytes: 50_000, counter, resultId: RESULT_ID });
      assert.match(view.text, /^\[loupe\] \d+ lines left out; /);
    }
  });

  it("makes more room once when the room kept is too small, and stays within the budget", () => {
    const small = build(5);
    assert.equal(small.calls, 2);
    checkLineView(text, small.view, { budgetTokens: 500, maxViewBytes: 50_000, counter, resultId: RESULT_ID });
  });

  it("gives the room kept back to lines when the notice turns out to say nothing", () => {
    const options = { budgetTokens: 500, maxViewBytes: 50_000, counter, describeGap: lineGapNotice(RESULT_ID, "") };
    const plain = buildLineView(lines, blocks, options);
    let calls = 0;
    const silent = buildLineView(lines, blocks, {
      ...options,
      selectionNotice: () => {
        calls++;
        return "";
      },
      selectionNoticeTokens: 200,
    });
    assert.equal(calls, 2, "selected once with the room, once without");
    assert.equal(silent.text, plain.text, "the same view as with no notice at all");
    checkLineView(text, silent, { ...options, resultId: RESULT_ID });
  });
});
