import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { longDocstrings, MIN_DOCSTRING_LINES } from "../intent/docstring.js";
import { projectResult, type ProjectOptions } from "../project-result.js";
import { splitLines } from "../split-lines.js";
import { checkLineView, lineViewOf } from "../testing/check-line-view.js";
import { shellResult } from "../testing/shell-result.js";
import { createTokenCounter } from "../token-counter.js";
import { declarationsOf } from "./declaration-map.js";
import { docstringsNearEnds, endPassingOver, linesBetween, type Span } from "./pass-over.js";

const counter = createTokenCounter();
const RESULT_ID = "r_abcdefghijklmnopqrstuvwxyz012345";
const asText = (rows: readonly string[]): string => rows.map((row) => `${row}\n`).join("");
const numbered = (rows: readonly string[]): string => rows.map((row, index) => `${String(index + 1).padStart(6)}\t${row}\n`).join("");
// The `def` and `class` lines of a Python file's lines, as the file-read projector finds them.
const definitionsOf = (lines: readonly string[], isNumbered = false): number[] => declarationsOf(lines, "m.py", isNumbered).map(({ index }) => index);
// Every long docstring of a file read from its top.
const docstringsOf = (lines: readonly string[], isNumbered = false): Span[] => longDocstrings(lines, definitionsOf(lines, isNumbered), true);
// A walk's blocks as [start, end, take].
const ranges = (blocks: ReadonlyArray<{ start: number; end: number; take: string }>): Array<[number, number, string]> =>
  blocks.map(({ start, end, take }) => [start, end, take]);
const prose = (count: number, indent = ""): string[] =>
  Array.from({ length: count }, (_, index) => `${indent}The separability of compound models, paragraph ${String(index)} of the narrative.`);

// A module as agents read them: a licence line, a long module docstring, imports, then a class whose docstring is long.
const MODULE = [
  "# Licensed under a 3-clause BSD style license - see LICENSE.rst",
  "",
  '"""',
  ...prose(14),
  '"""',
  "import numpy as np",
  "from .core import CompoundModel, Model, ModelDefinitionError",
  "",
  "class Separable:",
  '    """Tells apart the outputs of a transform.',
  ...prose(20, "    "),
  '    """',
  "    def matrix(self, transform):",
  "        left = _coord_matrix(transform.left, 'left', transform.n_outputs)",
  "        right = _coord_matrix(transform.right, 'right', transform.n_outputs)",
  "        return np.hstack([left, right])",
  ...Array.from({ length: 300 }, (_, index) =>
    index % 6 === 0 ? `def helper_${String(index)}(value):` : `    step_${String(index)} = value + ${String(index)}`,
  ),
];

describe("longDocstrings()", () => {
  it("finds the module's docstring after comments and blank lines, and each definition's, in plain and numbered reads", () => {
    const spans = docstringsOf(splitLines(asText(MODULE)));
    assert.deepEqual(spans, [
      { start: 2, end: 18 },
      { start: 22, end: 44 },
    ]);
    assert.deepEqual(docstringsOf(splitLines(numbered(MODULE)), true), spans);
  });

  it("passes over no short, one-line, unclosed or misplaced string", () => {
    const short = ['"""Short.', "Two lines.", '"""', "x = 1"];
    assert.deepEqual(docstringsOf(short), []);
    const oneLine = ['"""One line."""', ...prose(8)];
    assert.deepEqual(docstringsOf(oneLine), []);
    const afterCode = ["x = 1", '"""', ...prose(8), '"""'];
    assert.deepEqual(docstringsOf(afterCode), [], "a string after the first statement is no module docstring");
    const unclosed = ["def f():", '    """Opens', ...prose(10, "    ")];
    assert.deepEqual(docstringsOf(unclosed), []);
    const exact = ['"""', ...prose(MIN_DOCSTRING_LINES - 2), '"""'];
    assert.deepEqual(docstringsOf(exact), [{ start: 0, end: MIN_DOCSTRING_LINES }]);
  });
});

describe("docstringsNearEnds()", () => {
  it("looks through a large file's ends only, as far as a head or tail of the budget could walk", () => {
    // 100 functions of 10 lines, each with a 6-line docstring: 1,000 lines.
    const rows = Array.from({ length: 100 }, (_, index) => [
      `def fn_${String(index)}(value):`,
      '    """Doc.',
      ...prose(4, "    "),
      '    """',
      "    a = 1",
      "    b = 2",
      "    return a + b",
    ]).flat();
    const lines = splitLines(asText(rows));
    const definitions = definitionsOf(lines);
    const all = longDocstrings(lines, definitions, true);
    assert.equal(all.length, 100);
    assert.deepEqual(docstringsNearEnds(lines, definitions, 1000, true), all, "a file within reach of both ends is looked through whole");
    const near = docstringsNearEnds(lines, definitions, 50, true);
    // 2 lines a token: the first and last 100 lines, 10 functions at each end.
    assert.deepEqual(near, [...all.slice(0, 10), ...all.slice(90)]);
    assert.deepEqual(
      longDocstrings(
        lines,
        definitions.filter((index) => index >= 200 && index < 400),
        false,
      ),
      all.slice(20, 40),
    );
  });
});

describe("endPassingOver()", () => {
  const lines = splitLines(asText(Array.from({ length: 60 }, (_, index) => `line_${String(index)} = compute(${String(index)})`)));
  const spans: Span[] = [
    { start: 5, end: 15 },
    { start: 40, end: 50 },
  ];

  it("walks the head and the tail around the spans, each one gap", () => {
    const head = endPassingOver(lines, spans, 1, 10_000, 20, counter);
    assert.deepEqual(ranges(head.blocks), [
      [0, 5, "head"],
      [15, 40, "head"],
      [50, 60, "head"],
    ]);
    assert.equal(head.end, 60);
    const tail = endPassingOver(lines, spans, -1, 10_000, 20, counter);
    assert.deepEqual(ranges(tail.blocks), [
      [50, 60, "tail"],
      [15, 40, "tail"],
      [0, 5, "tail"],
    ]);
    assert.equal(tail.end, 0);
  });

  it("opens no gap without room for two, and stops at the first line that does not fit", () => {
    const perLine = counter.count(lines[0] ?? "");
    const stopped = endPassingOver(lines, spans, 1, perLine * 5 + 39, 20, counter);
    assert.deepEqual(
      stopped.blocks.map(({ start, end }) => [start, end]),
      [[0, 5]],
    );
    assert.equal(stopped.end, 5);
    const short = endPassingOver(lines, spans, 1, perLine * 3, 20, counter);
    assert.equal(short.end, 3);
  });

  it("never spends more than its tokens, nor takes a line of a span", () => {
    const spanList = fc
      .uniqueArray(fc.nat({ max: 80 }), { maxLength: 12 })
      .map((cuts) => [...cuts].sort((a, b) => a - b))
      .map((cuts) => {
        const result: Span[] = [];
        for (let index = 0; index + 1 < cuts.length; index += 2) result.push({ start: cuts[index] ?? 0, end: cuts[index + 1] ?? 0 });
        return result;
      });
    const many = splitLines(asText(Array.from({ length: 80 }, (_, index) => `v${String(index)} = ${"x".repeat(index % 17)}`)));
    fc.assert(
      fc.property(spanList, fc.nat({ max: 600 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom<1 | -1>(1, -1), (list, maxTokens, gapTokens, step) => {
        const { blocks, end } = endPassingOver(many, list, step, maxTokens, gapTokens, counter);
        let spent = 0;
        for (const block of blocks) {
          const cost = many.slice(block.start, block.end).reduce((sum, line) => sum + counter.count(line), 0);
          assert.ok(block.maxTokens === cost || block.maxTokens === cost + gapTokens);
          spent += cost;
          assert.ok(
            list.every((span) => block.end <= span.start || block.start >= span.end),
            "a block takes a span's line",
          );
        }
        assert.ok(spent + Math.max(0, blocks.length - 1) * gapTokens <= maxTokens, `${String(spent)} tokens over ${String(maxTokens)}`);
        assert.ok(end >= 0 && end <= many.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe("linesBetween()", () => {
  it("is the range less the spans", () => {
    const spans: Span[] = [
      { start: 2, end: 4 },
      { start: 6, end: 9 },
    ];
    assert.deepEqual(linesBetween(0, 10, spans), [
      { start: 0, end: 2 },
      { start: 4, end: 6 },
      { start: 9, end: 10 },
    ]);
    assert.deepEqual(linesBetween(3, 7, spans), [{ start: 4, end: 6 }]);
    assert.deepEqual(linesBetween(0, 10, []), [{ start: 0, end: 10 }]);
  });
});

describe("a Python file read's head and tail", () => {
  const options: ProjectOptions = { budgetTokens: 400, maxViewBytes: 50_000, counter, resultId: RESULT_ID, view: "" };

  it("pass long docstrings over, so the head reaches the code below them", () => {
    const text = asText(MODULE);
    const view = projectResult(shellResult(text, "cat astropy/modeling/separable.py"), options);
    assert.match(view.text, /^from \.core import CompoundModel/m);
    assert.match(view.text, /_coord_matrix\(transform\.left, 'left'/);
    assert.doesNotMatch(view.text, /paragraph 5 of/, "the docstrings are left to recovery");
    assert.match(view.text, /lines 4–18 of astropy\/modeling\/separable\.py/);
    checkLineView(text, lineViewOf(view), options);
    // The same lines in a file of another language are cut as before: the head stops inside the docstring.
    const other = projectResult(shellResult(text, "cat src/separable.ts"), options);
    assert.match(other.text, /paragraph 5 of/);
    assert.doesNotMatch(other.text, /_coord_matrix\(transform\.left/);
  });

  it("take no module docstring in a read that starts further down the file", () => {
    // sed -n from the last line of one docstring: the code up to the next docstring is code, not a string.
    const part = [
      '    """',
      ...Array.from({ length: 8 }, (_, index) => `    total_${String(index)} = compute(${String(index)})`),
      "def later(value):",
      '    """Doc.',
      ...prose(8, "    "),
      '    """',
      ...MODULE.slice(48, 200),
    ];
    const text = asText(part);
    const partLines = splitLines(text);
    assert.deepEqual(longDocstrings(partLines, definitionsOf(partLines), false), [{ start: 10, end: 20 }]);
    const view = projectResult(shellResult(text, "sed -n '120,305p' astropy/modeling/separable.py"), options);
    assert.match(view.text, /total_7 = compute\(7\)/, "the code below the first line is the head's");
    assert.doesNotMatch(view.text, /paragraph 3 of/);
    checkLineView(text, lineViewOf(view), options);
  });

  it("give what room is left to the docstrings passed over", () => {
    const text = asText(MODULE.slice(0, 48));
    const roomy = { ...options, budgetTokens: 4000 };
    const view = projectResult(shellResult(text, "cat astropy/modeling/separable.py"), roomy);
    assert.equal(view.text, text, "a read that fits is whole");
    // A read a little over its budget: every line of code fits, and what is left fills the module docstring from its top.
    const over = asText(MODULE.slice(0, 60));
    const tight = { ...options, budgetTokens: counter.count(over) - 300 };
    const cut = projectResult(shellResult(over, "cat astropy/modeling/separable.py"), tight);
    assert.match(cut.text, /paragraph 0 of/);
    assert.match(cut.text, /step_11 = value \+ 11/);
    assert.doesNotMatch(cut.text, /^ {4}The separability of compound models, paragraph 19 of/m, "the class's docstring is left to recovery");
    checkLineView(over, lineViewOf(cut), tight);
  });

  it("keep the invariants over random documented modules: bounded, whole lines, recoverable, the same each time", () => {
    const definition = fc.record({ docstring: fc.nat({ max: 24 }), code: fc.nat({ max: 24 }), kind: fc.constantFrom("def", "class", "    def") });
    fc.assert(
      fc.property(
        fc.nat({ max: 20 }),
        fc.array(definition, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 120, max: 1500 }),
        fc.boolean(),
        fc.constantFrom("", "Why does fn_2 return None?"),
        (moduleDoc, definitions, budgetTokens, numberedRead, intent) => {
          const rows = [
            "# -*- coding: utf-8 -*-",
            ...(moduleDoc > 0 ? ['"""Module.', ...prose(moduleDoc), '"""'] : []),
            ...definitions.flatMap(({ docstring, code, kind }, index) => {
              const indent = kind.startsWith(" ") ? "        " : "    ";
              return [
                `${kind} fn_${String(index)}(value):`,
                ...(docstring > 0 ? [`${indent}"""Doc.`, ...prose(docstring, indent), `${indent}"""`] : []),
                ...Array.from({ length: code }, (_, line) => `${indent}v_${String(line)} = step(value, ${String(line)})`),
              ];
            }),
          ];
          const text = numberedRead ? numbered(rows) : asText(rows);
          const viewOptions: ProjectOptions = { ...options, budgetTokens, ...(intent === "" ? {} : { intent }) };
          const input = shellResult(text, `${numberedRead ? "cat -n" : "cat"} src/module.py`);
          const view = projectResult(input, viewOptions);
          checkLineView(text, lineViewOf(view), viewOptions);
          assert.equal(projectResult(input, viewOptions).text, view.text);
        },
      ),
      { numRuns: 200 },
    );
  });
});
