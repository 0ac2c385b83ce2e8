import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DECLARATION_MAP_OPENING } from "../file-read/declaration-map.js";
import { projectFileRead } from "../file-read/project-file-read.js";
import { splitLines } from "../split-lines.js";
import { createTokenCounter } from "../token-counter.js";
import { briefGapNotice } from "./render-selection.js";

const counter = createTokenCounter();
const RESULT_ID = "r_0123456789abcdefghijABCDEFGHIJ_-";

// A module with many definitions: its view keeps head, tail and an outline, so it has several gaps.
const source = Array.from({ length: 60 }, (_, block) =>
  [
    `def handler_${String(block)}(event, context):`,
    ...Array.from({ length: 12 }, (_, line) => `    value_${String(line)} = compute(event, ${String(block * 12 + line)})`),
    "",
  ].join("\n"),
).join("\n");

describe("brief gap notices", () => {
  it("name the result in the first notice only; later ones give the range, and every omission keeps its whole continuation", () => {
    const text = source;
    const view = projectFileRead(
      { text, lines: splitLines(text), toolName: "bash", args: { command: "cat app.py" }, isError: false, exitCode: 0, timedOut: false, durationMs: 1 },
      { budgetTokens: 1600, maxViewBytes: 50_000, counter, resultId: RESULT_ID, view: "" },
    );
    // Gap notices: every notice line but the map of omitted declarations, which points at them.
    const notices = view.text.split("\n").filter((line) => line.startsWith("[loupe]") && !line.startsWith(DECLARATION_MAP_OPENING));
    assert.ok(notices.length >= 3, `several gaps: ${String(notices.length)}`);
    assert.equal(notices.filter((line) => line.includes(RESULT_ID)).length, 1, "the result id is written once");
    const [first, ...later] = notices;
    assert.match(first ?? "", /recover with \{"result_id":"r_0123456789abcdefghijABCDEFGHIJ_-","start_line":\d+,"end_line":\d+\}/);
    for (const line of later) assert.match(line, /^\[loupe\] lines? [\d,–]+ omitted; recover as above with \{"start_line":\d+,"end_line":\d+\}$/);
    assert.equal(view.omissions.length, notices.length);
    for (const omission of view.omissions) {
      assert.deepEqual(JSON.parse(omission.continuationJson), { result_id: RESULT_ID, start_line: omission.startLine, end_line: omission.endLine });
    }
    assert.ok(counter.count(view.text) <= 1600);
  });

  it("say only the lines when nothing was saved, numbered as a gutter and sed write them", () => {
    assert.equal(briefGapNotice(3, 3, ""), "[loupe] line 3 omitted");
    assert.equal(briefGapNotice(1200, 1300, "{}"), '[loupe] lines 1200–1300 omitted; recover as above with {"start_line":1200,"end_line":1300}');
  });
});
