import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { windowedReadView, type OmittedLines } from "./windowed-read-view.js";

// Line i of the read (1-based) as the file holds it; the read starts at file line 101.
const START = 101;
const TOTAL = 400;
const readLine = (line: number): string => `def handler_${String(START + line - 1)}(): return ${String(line)}`;

/** A view in the projection core's shape: notices and kept lines in order, and the omitted ranges. */
function viewOf(kept: readonly [number, number][], notices: Record<number, string> = {}): { viewText: string; omissions: OmittedLines[] } {
  const lines: string[] = [...(notices[0] === undefined ? [] : [notices[0]])];
  const omissions: OmittedLines[] = [];
  let next = 1;
  for (const [from, to] of kept) {
    if (from > next) {
      omissions.push({ startLine: next, endLine: from - 1 });
      lines.push(notices[next] ?? `[loupe] lines ${String(next)}–${String(from - 1)} omitted; recover as above with {"start_line":${String(next)}}`);
    }
    for (let line = from; line <= to; line++) lines.push(readLine(line));
    next = to + 1;
  }
  if (next <= TOTAL) {
    omissions.push({ startLine: next, endLine: TOTAL });
    lines.push(`[loupe] lines ${String(next)}–${String(TOTAL)} omitted`);
  }
  return { viewText: lines.join("\n"), omissions };
}

const ORIGINAL = Array.from({ length: TOTAL }, (_, index) => readLine(index + 1)).join("\n");
const base = { original: ORIGINAL, startLine: START, resultId: "r_1", filePath: "/w/app.py", maxContextChars: 9000 };

/** Every `N\t` line of a context must be the file's line N. */
function numberedIn(context: string): number[] {
  return context
    .split("\n")
    .filter((line) => !line.startsWith("[loupe] "))
    .map((line) => {
      const [, n = "", text] = /^(\d+)\t(.*)$/.exec(line) ?? [];
      assert.equal(text, readLine(Number(n) - START + 1), `context line ${JSON.stringify(line)}`);
      return Number(n);
    });
}

describe("windowedReadView()", () => {
  it("puts the first run in the content under its true start, and every later kept line beside it under its file number", () => {
    const { viewText, omissions } = viewOf(
      [
        [1, 30],
        [200, 215],
        [390, 400],
      ],
      { 0: "[loupe] 3 more lines mention `handler_300`; recover with {…}" },
    );
    const view = windowedReadView({ ...base, viewText, omissions });
    assert.ok(view);
    assert.equal(view.startLine, START);
    assert.equal(view.numLines, 30);
    assert.deepEqual(
      view.content.split("\n"),
      Array.from({ length: 30 }, (_, index) => readLine(index + 1)),
    );
    assert.ok(!view.content.includes("[loupe"), "no notice among the lines the runtime numbers");
    const context = view.context.split("\n");
    assert.equal(context[0], "[loupe] more of this read follows, each line numbered as in the file:");
    assert.equal(context[1], "[loupe] 3 more lines mention `handler_300`; recover with {…}");
    assert.match(context[2]!, /^\[loupe\] lines 31–199 omitted/);
    const numbered = numberedIn(view.context);
    assert.deepEqual(numbered, [
      ...Array.from({ length: 16 }, (_, index) => START + 199 + index),
      ...Array.from({ length: 11 }, (_, index) => START + 389 + index),
    ]);
    // Notices stay where the view had them: the gap before the last run comes right before its lines.
    assert.match(context[context.indexOf(`${String(START + 389)}\t${readLine(390)}`) - 1]!, /^\[loupe\] lines 216–389 omitted/);
  });

  it("starts the content at the first kept line when the view does not keep the read's first lines", () => {
    const { viewText, omissions } = viewOf([
      [50, 60],
      [300, 310],
    ]);
    const view = windowedReadView({ ...base, viewText, omissions });
    assert.ok(view);
    assert.deepEqual([view.startLine, view.numLines], [START + 49, 11]);
    assert.equal(view.content.split("\n")[0], readLine(50));
    assert.match(view.context, /^\[loupe\] more of this read follows[^\n]*\n\[loupe\] lines 1–49 omitted/);
    assert.equal(numberedIn(view.context).length, 11);
  });

  it("ends a context over the runtime's limit at a whole line, with a notice that reads the rest", () => {
    const { viewText, omissions } = viewOf([
      [1, 10],
      [100, 300],
    ]);
    const view = windowedReadView({ ...base, viewText, omissions, maxContextChars: 2000 });
    assert.ok(view);
    assert.ok(view.context.length <= 2000, String(view.context.length));
    const numbered = numberedIn(view.context);
    const last = numbered.at(-1)!;
    assert.ok(numbered.length > 10 && last < START + 299);
    const from = last - START + 2;
    assert.equal(
      view.context.split("\n").at(-1),
      `[loupe] lines ${String(last + 1)}–${String(START + TOTAL - 1)} of this read are not all shown here; read them with read_result {"result_id":"r_1","start_line":${String(from)},"end_line":${String(TOTAL)}} or Read {"file_path":"/w/app.py","offset":${String(last + 1)},"limit":${String(START + TOTAL - 1 - last)}}`,
    );
  });

  it("tells a line of the file that starts like a notice from the view's notices", () => {
    const lines = Array.from({ length: TOTAL }, (_, index) => (index === 4 ? "[loupe] lines 1–9 omitted (a line of docs, not a notice)" : readLine(index + 1)));
    const { viewText, omissions } = viewOf([
      [1, 10],
      [300, 305],
    ]);
    const view = windowedReadView({ ...base, original: lines.join("\n"), viewText: viewText.replace(readLine(5), lines[4]!), omissions });
    assert.ok(view);
    assert.equal(view.numLines, 10);
    assert.equal(view.content.split("\n")[4], lines[4]);
    assert.equal(numberedIn(view.context).length, 6);
  });

  it("is undefined when an omission has no line range or the view's lines do not match the kept lines", () => {
    const { viewText, omissions } = viewOf([[1, 10]]);
    assert.equal(windowedReadView({ ...base, viewText, omissions: [...omissions, { startLine: 5 }] }), undefined);
    assert.equal(windowedReadView({ ...base, viewText: `${viewText}\nan extra line`, omissions }), undefined);
    assert.equal(windowedReadView({ ...base, viewText: viewText.split("\n").slice(1).join("\n"), omissions }), undefined);
  });
});
