import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { TextView } from "../head-tail-view.js";
import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { createTokenCounter } from "../token-counter.js";
import { collapseRedraws } from "./collapse-redraws.js";
import { projectCommand } from "./project-command.js";
import { fitsInHalf, shownLineNumbers } from "./testing/view-lines.js";

const counter = createTokenCounter();

function commandInput(text: string, overrides: Partial<ProjectorInput> = {}): ProjectorInput {
  return {
    text,
    lines: splitLines(text),
    toolName: "bash",
    args: { command: "run-it --all" },
    isError: false,
    exitCode: 1,
    timedOut: false,
    durationMs: 1500,
    ...overrides,
  };
}

function context(budgetTokens: number, resultId = "r_cmd", maxViewBytes = 50_000): ProjectorContext {
  return { budgetTokens, maxViewBytes, counter, resultId, view: "" };
}

// Every kept line shown in another form is a collapsed progress bar of the original line.
function checkDisplayedLines(original: string, view: TextView): void {
  const lines = splitLines(original);
  const viewLines = splitLines(view.text);
  const shown = [...viewLines].filter((line) => !line.startsWith("[loupe"));
  const expected = [...shownLineNumbers(view, lines.length)].map((line) => collapseRedraws(lines[line - 1] ?? ""));
  assert.deepEqual(
    shown.map((line) => line.replace(/\n$/, "")),
    expected.map((line) => line.replace(/\n$/, "")),
  );
}

const anyLine = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    "\r",
    "  3%\r 40%\r100%",
    "error: boom\r",
    "Traceback (most recent call last):",
    '  File "/testbed/app.py", line 3, in main',
    '  File "/usr/lib/python3.11/x.py", line 9, in f',
    "    call()",
    "ValueError: bad value",
    "FAILED tests/t.py::test_x - assert 0",
    "=== short test summary info ===",
    "==== 1 failed, 3 passed in 0.1s ====",
    "src/a.ts(3,5): error TS2322: nope",
    "a.c:3:5: error: 'y' undeclared",
    "    3 |   int x = y;",
    "not ok 2 - fails",
    "  ---",
    "  ...",
    "# fail 1",
    "\u{1F600} astral",
    "\uFFFD replacement",
    "x".repeat(4000),
  ),
);
const anyText = fc
  .tuple(fc.array(anyLine, { maxLength: 300 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([lines, ending, finalNewline]) => lines.join(ending) + (finalNewline && lines.length > 0 ? ending : ""));
const status = fc.record({
  exitCode: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
  isError: fc.boolean(),
  timedOut: fc.boolean(),
  durationMs: fc.option(fc.nat({ max: 10_000_000 }), { nil: undefined }),
  command: fc.string({ maxLength: 40 }),
});

describe("projectCommand()", () => {
  it("is bounded, deterministic, whole lines, recoverable, and says how the command ended", () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 150, max: 1200 }), fc.constantFrom("", "r_p"), status, (text, budget, resultId, end) => {
        const input = commandInput(text, {
          args: { command: end.command },
          exitCode: end.exitCode,
          isError: end.isError,
          timedOut: end.timedOut,
          durationMs: end.durationMs,
        });
        const options = context(budget, resultId, 6000);
        const view = projectCommand(input, options);
        checkLineView(text, view, options);
        checkDisplayedLines(text, view);
        assert.deepEqual(projectCommand(input, options), view, "deterministic");
        const header = view.text.split("\n", 1)[0] ?? "";
        assert.ok(header.startsWith("[loupe] "), "the header comes first");
        if (end.exitCode !== undefined) assert.ok(header.includes(`exit ${String(end.exitCode)}`), "exit status in the header");
        if (end.exitCode !== undefined && end.exitCode !== 0) assert.ok(header.includes("(failed)"));
        if (end.isError && (end.exitCode ?? 0) === 0) assert.ok(header.includes("failed (is_error)"));
        if (end.timedOut) assert.ok(header.includes("timed out"));
      }),
      { numRuns: 150 },
    );
  });

  // Evidence lines are known by construction here, not by the classifier.
  const words = fc.constantFrom("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima");
  const noise = fc.tuple(words, words, words, fc.nat(99_999)).map(([a, b, c, n]) => `${a} ${b} ${c} ${String(n)}`);
  const evidence = fc.oneof(
    fc.tuple(words, words, fc.nat(999)).map(([a, b, n]) => [`FAILED tests/test_${a}.py::test_${b} - AssertionError: assert ${String(n)} == 0`]),
    fc
      .tuple(words, fc.nat(900), fc.nat(80))
      .map(([a, l, c]) => [`src/${a}.ts(${String(l + 1)},${String(c + 1)}): error TS2322: Type 'string' is not assignable to type 'number'.`]),
    fc.tuple(words, fc.nat(900)).map(([a, l]) => [`${a}.c:${String(l + 1)}:5: error: '${a}' undeclared (first use in this function)`]),
    fc.tuple(fc.nat(500), words).map(([n, a]) => [`not ok ${String(n)} - ${a} works`]),
    words.map((a) => [`--- FAIL: Test_${a} (0.00s)`]),
    words.map((a) => [`ModuleNotFoundError: No module named '${a}'`]),
    fc
      .tuple(words, fc.nat(900))
      .map(([a, n]) => ["Traceback (most recent call last):", `  File "/testbed/${a}.py", line ${String(n + 1)}, in run`, `    ${a}()`, `KeyError: '${a}'`]),
  );
  const output = fc.tuple(
    fc.array(noise, { minLength: 100, maxLength: 1500 }),
    fc.array(fc.tuple(evidence, fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 8 }),
  );

  it("keeps every error line when the error lines fit in half the budget", () => {
    let checked = 0;
    fc.assert(
      fc.property(output, fc.constantFrom(500, 1000, 2000), ([noiseLines, inserted], budget) => {
        const items = noiseLines.map((line) => ({ lines: [line], evidence: false }));
        // Insert from the back so earlier positions stay valid.
        const positions = inserted.map(([lines, at]) => ({ lines, at: Math.floor(at * items.length) })).sort((a, b) => b.at - a.at);
        for (const { lines, at } of positions) items.splice(at, 0, { lines, evidence: true });
        const lines: string[] = [];
        const known: number[] = [];
        for (const entry of items) {
          for (const line of entry.lines) {
            lines.push(line + "\n");
            // The traceback's source line is detail; its header, frame and exception are what must stay.
            if (entry.evidence && !line.startsWith("    ")) known.push(lines.length);
          }
        }
        const text = lines.join("");
        const options = context(budget);
        if (counter.within(text, budget) !== false || !fitsInHalf(lines, known, budget, counter, "r_cmd")) return;
        checked++;
        const view = projectCommand(commandInput(text), options);
        const shown = shownLineNumbers(view, lines.length);
        for (const line of known) assert.ok(shown.has(line), `error line ${String(line)} is missing: ${lines[line - 1] ?? ""}`);
        assert.ok(shown.has(lines.length), "the last line is kept");
      }),
      { numRuns: 120 },
    );
    assert.ok(checked > 40, `too few generated outputs fit the condition (${String(checked)})`);
  });

  it("keeps the verdict, the first and last tracebacks, and names the blocks that did not fit", () => {
    const parts: string[] = [];
    for (let block = 0; block < 12; block++) {
      parts.push(...Array.from({ length: 40 }, (_, index) => `step ${String(block)}.${String(index)} ran fine with some output\n`));
      parts.push("Traceback (most recent call last):\n", `  File "/testbed/mod_${String(block)}.py", line ${String(10 + block)}, in run\n`, "    work()\n");
      parts.push(...Array.from({ length: 6 }, (_, index) => `  File "/usr/lib/python3.11/lib_${String(index)}.py", line 9, in f\n    inner()\n`));
      parts.push(`RuntimeError: failure number ${String(block)}\n`);
    }
    parts.push("==== 12 failed, 40 passed in 3.20s ====\n");
    const text = parts.join("");
    // The error lines do not fit in half the budget here: the head keeps its share, then the first and last blocks.
    const view = projectCommand(commandInput(text, { args: { command: "pytest -x" } }), context(1000));
    checkLineView(text, view, context(1000));
    const lines = view.text.split("\n");
    assert.equal(lines[0], "[loupe] $ pytest -x · exit 1 (failed) · 1.5 s");
    assert.match(lines[1] ?? "", /^\[loupe\] 12 error blocks; \d+ not shown in full: lines [\d,]+–[\d,]+/);
    assert.ok(view.text.includes("RuntimeError: failure number 0\n"), "first block");
    assert.ok(view.text.includes("RuntimeError: failure number 11\n"), "last block");
    assert.ok(view.text.includes('  File "/testbed/mod_11.py", line 21, in run\n'), "repository frame of the last block");
    assert.ok(view.text.endsWith("==== 12 failed, 40 passed in 3.20s ====\n"), "the verdict");
    // Every range the header names lies in the original and is (at least partly) omitted.
    const shown = shownLineNumbers(view, splitLines(text).length);
    const listed = (lines[1] ?? "").replace(/^.*not shown in full: lines? /, "").replace(/, and \d+ more$/, "");
    for (const range of listed.split(", ")) {
      const [start = 0, end = start] = range.split("–").map((number) => Number(number.replace(/,/g, "")));
      assert.ok(start >= 1 && end >= start && end <= splitLines(text).length, `range ${range} lies in the original`);
      assert.ok([...Array(end - start + 1).keys()].some((offset) => !shown.has(start + offset)));
    }
  });

  it("names a run of one-line diagnostics it could not show as one range", () => {
    const diagnostics = Array.from(
      { length: 60 },
      (_, index) => `src/mod.ts(${String(index + 1)},14): error TS2322: Type 'string' is not assignable to type 'number'.\n`,
    );
    const text = "compiling one module of the project with the default settings\n".repeat(80) + diagnostics.join("");
    const view = projectCommand(commandInput(text, { exitCode: 2 }), context(400));
    checkLineView(text, view, context(400));
    const header = view.text.split("\n")[1] ?? "";
    assert.match(header, /^\[loupe\] 60 error blocks; \d+ not shown in full: lines [\d,]+–[\d,]+$/);
  });

  it("keeps a Go panic's own frame and the program's outermost one when the trace is long", () => {
    const frames = Array.from({ length: 40 }, (_, index) => `main.step${String(index)}(...)\n\t/home/u/app/steps.go:${String(100 + index)} +0x1d\n`);
    const text =
      "processing one record of the batch with the default settings\n".repeat(200) +
      "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\n" +
      frames.join("") +
      "main.main()\n\t/home/u/app/main.go:12 +0x1d\nexit status 2\n";
    const view = projectCommand(commandInput(text, { exitCode: 2 }), context(400));
    checkLineView(text, view, context(400));
    for (const line of ["panic: runtime error: index out of range", "main.step0(...)\n\t/home/u/app/steps.go:100 +0x1d\n", "main.main()\n"])
      assert.ok(view.text.includes(line), `${line.trim()} missing:\n${view.text}`);
  });

  it("collapses library frames before repository frames when room is short", () => {
    // Four repository frames, each calling into six library frames.
    const frames = Array.from({ length: 28 }, (_, index) =>
      index % 7 === 0
        ? `  File "/testbed/pkg/m${String(index)}.py", line ${String(index + 1)}, in f${String(index)}\n    call_${String(index)}()\n`
        : `  File "/opt/venv/lib/python3.12/site-packages/dep/d${String(index)}.py", line 7, in g\n    dep_call()\n`,
    );
    const text = "start\n".repeat(300) + "Traceback (most recent call last):\n" + frames.join("") + "TypeError: bad operand\n" + "end of output\n".repeat(5);
    const view = projectCommand(commandInput(text), context(1000));
    for (let index = 0; index < 28; index += 7)
      assert.ok(
        view.text.includes(`/testbed/pkg/m${String(index)}.py", line ${String(index + 1)}, in f${String(index)}\n    call_${String(index)}()\n`),
        `repository frame ${String(index)}`,
      );
    assert.ok(view.text.includes("Traceback (most recent call last):\n"));
    assert.ok(view.text.includes("TypeError: bad operand\n"));
    assert.ok(!view.text.includes("site-packages/dep/d27.py"), "library frames go first when room is short");
  });

  it("shows progress bars in their final state and keeps them recoverable", () => {
    const text =
      Array.from({ length: 3000 }, (_, index) => `item ${String(index)}: 0%\ritem ${String(index)}: 50%\ritem ${String(index)}: 100%\n`).join("") +
      "error: disk full\n";
    const view = projectCommand(commandInput(text), context(500));
    checkLineView(text, view, context(500));
    checkDisplayedLines(text, view);
    assert.ok(!/\r(?!\n)/.test(view.text), "no redraws in the view");
    assert.ok(view.text.includes("item 0: 100%\n"));
    assert.ok(view.text.endsWith("error: disk full\n"));
  });

  it("keeps the last line when a test run never ran", () => {
    const text =
      "collecting ...\n".repeat(400) + "ImportError while loading conftest '/testbed/conftest.py'.\nModuleNotFoundError: No module named 'hypothesis'\n";
    const view = projectCommand(commandInput(text, { exitCode: 4 }), context(500));
    assert.ok(view.text.endsWith("ModuleNotFoundError: No module named 'hypothesis'\n"));
    assert.ok(view.text.startsWith("[loupe] $ run-it --all · exit 4 (failed)"));
  });

  it("keeps the last lines that are not blank, whatever blank lines the output ends with", () => {
    const verdicts = Array.from({ length: 5 }, (_, index) => `verdict line ${String(index)}: checksum mismatch in block ${String(index * 17)}\n`);
    const text = "processing item with a few words of ordinary progress output\n".repeat(400) + verdicts.join("") + "\n".repeat(8);
    // No share of the tail beyond the last lines: only they can keep the verdicts.
    const options = { ...context(500), shares: { command: { moreTail: 0 } } };
    const view = projectCommand(commandInput(text, { exitCode: 0 }), options);
    checkLineView(text, view, options);
    for (const verdict of verdicts) assert.ok(view.text.includes(verdict), `${verdict.trim()} missing:\n${view.text}`);
  });

  it("keeps pytest's short test summary block whole", () => {
    const names = Array.from({ length: 8 }, (_, index) => `FAILED tests/test_mod.py::test_case_${String(index)} - assert ${String(index)} == 1\n`);
    const text =
      "tests/test_mod.py ........................................ [ 50%]\n".repeat(200) +
      "=========================== short test summary info ============================\n" +
      names.join("") +
      "========================= 8 failed, 392 passed in 2.01s =========================\n";
    const view = projectCommand(commandInput(text), context(500));
    for (const name of names) assert.ok(view.text.includes(name));
  });

  it("handles empty and one huge line within budget", () => {
    // Lines of one repeated character tokenize in quadratic time (gpt-tokenizer), so "huge" stays at 20,000 here.
    for (const text of ["", "x".repeat(20_000), "y".repeat(20_000) + "\nerror: late\n", "ab ".repeat(30_000)]) {
      const view = projectCommand(commandInput(text), context(300));
      checkLineView(text, view, context(300));
    }
  });
});
