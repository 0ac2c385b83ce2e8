import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { projectResult, type ProjectOptions } from "../project-result.js";
import { splitLines } from "../split-lines.js";
import { checkLineView, lineViewOf } from "../testing/check-line-view.js";
import { shellResult } from "../testing/shell-result.js";
import { createTokenCounter } from "../token-counter.js";
import { boostDefinitions } from "./definitions.js";
import { docstringSpan, MIN_DOCSTRING_LINES } from "./docstring.js";
import { intentBlocks } from "./intent-blocks.js";

const counter = createTokenCounter();
const numbered = (rows: readonly string[]): string => rows.map((row, index) => `${String(index + 1).padStart(6)}\t${row}\n`).join("");
const docLines = (count: number): string[] =>
  Array.from({ length: count }, (_, index) => `    >>> _line_type("READ SERR ${String(index)}")  # example ${String(index)}`);

// A module whose `_line_type` (line 41) opens with a 34-line docstring, then compiles the patterns the agent asks about.
const MODULE = [
  ...Array.from({ length: 40 }, (_, index) =>
    index % 5 === 0 ? `def helper_${String(index)}(value):` : `    total_${String(index)} = value + ${String(index)}`,
  ),
  "def _line_type(line, delimiter=None):",
  '    """Interpret a QDP file line',
  ...docLines(32),
  '    """',
  '    _decimal_re = r"[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?"',
  '    _command_re = r"READ [TS]ERR(\\s+[0-9]+)+"',
  '    _data_re = rf"({_decimal_re}|NO|[-+]?nan)"',
  "    return _type_from(line, _data_re)",
  ...Array.from({ length: 400 }, (_, index) =>
    index % 5 === 0 ? `def other_${String(index)}(value):` : `    other_${String(index)} = value * ${String(index)}`,
  ),
];

describe("a definition's docstring", () => {
  it("is found after a signature of one or several lines, in plain and numbered reads, when it is long", () => {
    const rows = ["def f(", "    a,", "    b,", ") -> int:", '    r"""Sum.', ...docLines(6), '    """', "    return a + b"];
    assert.deepEqual(docstringSpan(rows, 0, rows.length), { start: 4, end: 12 });
    assert.deepEqual(docstringSpan(splitLines(numbered(rows)), 0, rows.length), { start: 4, end: 12 });
    const single = ["    def g(self):  # a comment", "        '''Does g.", ...docLines(MIN_DOCSTRING_LINES), "        '''", "        return 1"];
    assert.deepEqual(docstringSpan(single, 0, single.length), { start: 1, end: MIN_DOCSTRING_LINES + 3 });
  });

  it("is not passed over when short, on one line, missing, or not closed within the body", () => {
    const short = ["def f():", '    """Short.', "    Two lines.", '    """', "    return 1"];
    assert.equal(docstringSpan(short, 0, short.length), undefined);
    const oneLine = ["def f():", '    """One line."""', ...docLines(8)];
    assert.equal(docstringSpan(oneLine, 0, oneLine.length), undefined);
    const none = ["def f():", "    x = 1", '    """not a docstring', ...docLines(8), '    """'];
    assert.equal(docstringSpan(none, 0, none.length), undefined);
    const open = ["def f():", '    """Opens', ...docLines(10)];
    assert.equal(docstringSpan(open, 0, open.length), undefined);
    // A one-line definition has no body to look in: the next class's docstring is not its own.
    const oneLiner = ["def f(x): return x", "class A:", '    """Doc.', ...docLines(8), '    """'];
    assert.equal(docstringSpan(oneLiner, 0, 1), undefined);
    const typescript = ["function f(): number {", "  /**", ...docLines(8), "   */", "  return 1;", "}"];
    assert.equal(docstringSpan(typescript, 0, typescript.length), undefined);
  });

  it("when the body does not fit, the view keeps the signature and the code after the docstring", () => {
    const text = numbered(MODULE);
    const intent = "Let me examine the `_line_type` function more carefully to understand all the patterns";
    const options: ProjectOptions = { budgetTokens: 700, maxViewBytes: 50_000, counter, resultId: "r_abcdefghijklmnopqrstuvwxyz012345", view: "", intent };
    const view = projectResult(shellResult(text, "nl -ba astropy/io/ascii/qdp.py"), options);
    assert.match(view.text, /\tdef _line_type\(line, delimiter=None\):/);
    assert.match(view.text, /_data_re = rf/);
    assert.match(view.text, /_command_re = r"READ/);
    assert.doesNotMatch(view.text, /example 20/, "the middle of the docstring is left to recovery");
    checkLineView(text, lineViewOf(view), options);
    // With room for the whole body, the docstring stays.
    const roomy = projectResult(shellResult(text, "nl -ba astropy/io/ascii/qdp.py"), { ...options, budgetTokens: 2000 });
    assert.match(roomy.text, /example 20/);
    assert.match(roomy.text, /_data_re = rf/);
    checkLineView(text, lineViewOf(roomy), { ...options, budgetTokens: 2000 });
  });

  it("passing it over never costs more than the windows' tokens", () => {
    // Modules of functions with docstrings of any length; every definition is asked about, in any order.
    const functionOf = fc.record({ docstring: fc.nat({ max: 20 }), code: fc.nat({ max: 12 }), word: fc.string({ minLength: 1, maxLength: 30 }) });
    fc.assert(
      fc.property(
        fc.array(functionOf, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 900 }),
        fc.integer({ min: 1, max: 40 }),
        (functions, maxTokens, gapTokens) => {
          const rows: string[] = [];
          const names = new Set<string>();
          functions.forEach(({ docstring, code, word }, index) => {
            names.add(`fn_${String(index)}`);
            rows.push(`def fn_${String(index)}(value):`);
            if (docstring > 0) rows.push('    """Doc.', ...Array.from({ length: docstring }, () => `    ${word}`), '    """');
            rows.push(...Array.from({ length: code }, (_, line) => `    v_${String(line)} = value + ${String(line)}  # ${word}`));
          });
          const lines = splitLines(rows.map((row) => `${row}\n`).join(""));
          const scores = new Map(rows.flatMap((row, index) => (row.startsWith("def ") ? [[index, 1] as [number, number]] : [])));
          const bodies = boostDefinitions(scores, lines, names);
          const ranked = [...scores.keys()].reverse();
          const { chosen } = intentBlocks({
            lines,
            matches: { ranked, scores, terms: [], bodies },
            counter,
            gapTokens,
            maxTokens,
            before: 3,
            after: 20,
            priority: 0,
          });
          const kept = new Uint8Array(lines.length);
          for (const index of chosen) kept[index] = 1;
          const gaps = kept.reduce((count, value, index) => count + (value === 0 && (index === 0 || kept[index - 1] === 1) ? 1 : 0), 0);
          const cost = chosen.reduce((sum, index) => sum + counter.count(lines[index] ?? ""), 0) + (gaps - 1) * gapTokens;
          assert.ok(cost <= maxTokens, `${String(cost)} > ${String(maxTokens)}`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("views that pass a docstring over stay within budget, whole-lined, recoverable and the same each time", () => {
    const functionOf = fc.record({ docstring: fc.nat({ max: 30 }), code: fc.nat({ max: 30 }) });
    fc.assert(
      fc.property(
        fc.array(functionOf, { minLength: 1, maxLength: 10 }),
        fc.nat({ max: 9 }),
        fc.integer({ min: 150, max: 1500 }),
        fc.boolean(),
        (functions, asked, budgetTokens, numberedRead) => {
          const rows = functions.flatMap(({ docstring, code }, index) => [
            `def fn_${String(index)}(value):`,
            ...(docstring > 0 ? ['    """Doc.', ...docLines(docstring), '    """'] : []),
            ...Array.from({ length: code }, (_, line) => `    v_${String(line)} = fn_${String(index)}_step(value, ${String(line)})`),
          ]);
          const text = numberedRead ? numbered(rows) : rows.map((row) => `${row}\n`).join("");
          const intent = `Let me look at fn_${String(asked % functions.length)} and what it returns`;
          const options: ProjectOptions = { budgetTokens, maxViewBytes: 50_000, counter, resultId: "r_abcdefghijklmnopqrstuvwxyz012345", view: "", intent };
          const input = shellResult(text, `${numberedRead ? "nl -ba" : "cat"} src/module.py`);
          const view = projectResult(input, options);
          checkLineView(text, lineViewOf(view), options);
          assert.equal(projectResult(input, options).text, view.text);
        },
      ),
      { numRuns: 150 },
    );
  });
});
