import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { numberedReadView, restOfReadNotice } from "./numbered-read-view.js";

const lines = (from: number, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `const value_${String(from + index)} = ${String(from + index)};`);

describe("numberedReadView()", () => {
  it("keeps the read's first lines, with no notice among them, and names the rest in the notice", () => {
    const original = `${lines(10, 500).join("\n")}\n`;
    const view = numberedReadView({ original, sizeChars: 2400, startLine: 10, resultId: "r_1", filePath: "/w/big.txt" });
    assert.ok(view);
    const shown = view.content.split("\n");
    assert.equal(shown.length, view.numLines);
    // The runtime numbers content line i as startLine + i: each must be the file's line of that number.
    assert.deepEqual(shown, lines(10, view.numLines));
    assert.ok(!view.content.includes("[loupe"));
    const first = 10 + view.numLines;
    assert.equal(
      view.notice,
      `[loupe] lines ${String(first)}–509 of this read are not shown; read them with read_result {"result_id":"r_1","start_line":${String(view.numLines + 1)},"end_line":500} or Read {"file_path":"/w/big.txt","offset":${String(first)},"limit":${String(500 - view.numLines)}}`,
    );
  });

  it("writes line numbers past 999 as the Read call and the file's numbering do: plain digits", () => {
    assert.equal(
      restOfReadNotice({ resultId: "r_1", startLine: 1001, filePath: "/w/big.txt" }, 10, 2000, "are not shown"),
      '[loupe] lines 1010–3000 of this read are not shown; read them with read_result {"result_id":"r_1","start_line":10,"end_line":2000} or Read {"file_path":"/w/big.txt","offset":1010,"limit":1991}',
    );
  });

  it("is undefined when every line fits", () => {
    assert.equal(numberedReadView({ original: lines(1, 3).join("\n"), sizeChars: 5000, startLine: 1, resultId: "r_1" }), undefined);
  });

  it("shows at least one line, however long", () => {
    const view = numberedReadView({ original: `${"x".repeat(900)}\nshort\n`, sizeChars: 500, startLine: 1, resultId: "r_1" });
    assert.deepEqual([view?.content, view?.numLines], ["x".repeat(900), 1]);
  });
});
