import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { isAppError } from "@loupe/errors";
import fc from "fast-check";
import { projectHeadTail } from "../head-tail-view.js";
import { projectResult, type ProjectOptions, type ResultInput } from "../project-result.js";
import { corpusDir } from "../testing/corpus-dir.js";
import { createTokenCounter } from "../token-counter.js";
import { DEFAULT_SHARES, resolveShares, type ProjectionShares, type ProjectionSharesOverride } from "./projection-shares.js";
import type { ResultKind } from "./projector.js";

const counter = createTokenCounter();
const options: ProjectOptions = { budgetTokens: 300, maxViewBytes: 50_000, counter, resultId: "r_abcdefghijklmnopqrstuvwxyz012345", view: "" };
// DEFAULT_SHARES' values in new objects: the same shares, not the same object.
const copied = JSON.parse(JSON.stringify(DEFAULT_SHARES)) as ProjectionShares;

const lines = (count: number, make: (index: number) => string): string => Array.from({ length: count }, (_, index) => make(index) + "\n").join("");
const script =
  lines(200, (index) => `step ${String(index)}: value_${String(index * 7)} computed`) +
  lines(5, (index) =>
    index === 0 ? "Traceback (most recent call last):" : `  File "/testbed/src/mod_${String(index)}.py", line ${String(index * 3)}, in run_${String(index)}`,
  ) +
  "ValueError: bad value\n";
const testRun =
  lines(150, (index) => `tests/test_x.py::test_case_${String(index)} ${index === 70 ? "FAILED" : "PASSED"}`) +
  "=========================== short test summary info ============================\nFAILED tests/test_x.py::test_case_70 - AssertionError\n======================== 1 failed, 149 passed in 3.21s =========================\n";
const fileRead = lines(400, (index) =>
  index % 40 === 0 ? `def function_${String(index)}(argument):` : `    statement_${String(index)} = argument + ${String(index)}`,
);
const grep = lines(300, (index) => `src/pkg/module_${String(index % 23)}.py:${String(index + 10)}:    call_site_${String(index)}(value)`);
const listing = lines(400, (index) => `./src/dir_${String(index % 19)}/sub_${String(index % 7)}/file_${String(index)}.py`);
const prose = lines(300, (index) => (index % 50 === 0 ? `## Section ${String(index)}` : `Some prose line number ${String(index)} with words in it.`));

// Each case with shares that move its view towards the tail.
const CASES: ReadonlyArray<{
  name: string;
  kind: ResultKind | undefined;
  toolName: string;
  args: Record<string, unknown>;
  text: string;
  tailFirst: ProjectionSharesOverride;
}> = [
  {
    name: "script output",
    kind: undefined,
    toolName: "bash",
    args: { command: "python reproduce.py" },
    text: script,
    tailFirst: { command: { scriptHead: 0, head: 0, moreTail: 1 } },
  },
  {
    name: "test run",
    kind: undefined,
    toolName: "bash",
    args: { command: "python -m pytest tests/test_x.py" },
    text: testRun,
    tailFirst: { command: { testRunHead: 0, head: 0, moreTail: 1 } },
  },
  {
    name: "cat of a file",
    kind: undefined,
    toolName: "bash",
    args: { command: "cat src/pkg/module.py" },
    text: fileRead,
    tailFirst: { fileRead: { head: 0.1, tail: 0.9 } },
  },
  { name: "grep", kind: undefined, toolName: "bash", args: { command: "grep -rn call_site src" }, text: grep, tailFirst: { search: { head: 0, tail: 0.9 } } },
  { name: "find", kind: undefined, toolName: "bash", args: { command: "find . -name '*.py'" }, text: listing, tailFirst: { listing: { head: 0, tail: 0.9 } } },
  { name: "generic text", kind: "generic", toolName: "fetch", args: {}, text: prose, tailFirst: { generic: { head: 0, tail: 0.9 } } },
];

function input(kind: ResultKind | undefined, toolName: string, args: Record<string, unknown>, text: string): ResultInput {
  return {
    toolName,
    declaredKind: kind,
    argsJson: JSON.stringify(args),
    text,
    structuredOnly: false,
    isError: false,
    exitCode: 1,
    timedOut: false,
    durationMs: 1200,
  };
}

const invalidArgument = (error: unknown): boolean => isAppError(error) && error.code === "invalid_argument";

describe("ProjectionShares", () => {
  it("holds shares from 0 to 1 and resolves no override to DEFAULT_SHARES itself", () => {
    for (const group of Object.values(DEFAULT_SHARES) as Array<Record<string, number>>)
      for (const value of Object.values(group)) assert.ok(value >= 0 && value <= 1);
    assert.equal(resolveShares(undefined), DEFAULT_SHARES);
    assert.deepEqual(resolveShares({}), DEFAULT_SHARES);
    assert.deepEqual(resolveShares({ command: { tail: 0.3 } }), { ...DEFAULT_SHARES, command: { ...DEFAULT_SHARES.command, tail: 0.3 } });
  });

  for (const { name, kind, toolName, args, text, tailFirst } of CASES) {
    it(`${name}: a default-valued override gives the same view as none, and a different share a different view`, () => {
      const plain = projectResult(input(kind, toolName, args, text), options);
      assert.equal(plain.unchanged, false);
      for (const shares of [copied, {}, { command: {} }, { fileRead: { head: DEFAULT_SHARES.fileRead.head } }] as ProjectionSharesOverride[]) {
        assert.deepEqual(projectResult(input(kind, toolName, args, text), { ...options, shares }), plain);
      }
      assert.notEqual(projectResult(input(kind, toolName, args, text), { ...options, shares: tailFirst }).text, plain.text);
    });
  }

  it("projectHeadTail takes its head share from the override", () => {
    const plain = projectHeadTail(prose, options);
    assert.deepEqual(projectHeadTail(prose, { ...options, shares: copied }), plain);
    assert.notEqual(projectHeadTail(prose, { ...options, shares: { headTail: { head: 0.1 } } }).text, plain.text);
  });

  it("refuses a share that is not a finite number in [0, 1], an unknown key or group, even for a result that fits", () => {
    const fits = input(undefined, "bash", { command: "ls" }, "a.py\n");
    const bad: unknown[] = [
      { command: { tail: -0.1 } },
      { command: { tail: 1.01 } },
      { command: { tail: Number.NaN } },
      { generic: { head: Number.POSITIVE_INFINITY } },
      { fileRead: { head: "0.5" } },
      { command: { tale: 0.2 } },
      { commands: { tail: 0.2 } },
      { search: 0.5 },
      { command: { toString: 0.2 } },
      { constructor: { tail: 0.2 } },
    ];
    for (const shares of bad) {
      assert.throws(() => resolveShares(shares as ProjectionSharesOverride), invalidArgument, JSON.stringify(shares));
      assert.throws(() => projectResult(fits, { ...options, shares: shares as ProjectionSharesOverride }), invalidArgument, JSON.stringify(shares));
    }
    assert.throws(
      () => projectResult(fits, { ...options, shares: { command: { tail: -0.1 } } }),
      /share must be a number from 0 to 1 \[share=command\.tail, value=-0\.1\]/,
    );
    assert.doesNotThrow(() => resolveShares({ command: { tail: 0, head: 1 } }));
  });

  it("views stay bounded under any valid shares", () => {
    const share = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.constantFrom(...CASES),
        fc.record({ scriptHead: share, testRunHead: share, tail: share, head: share, moreTail: share, errorsFirstAbove: share }),
        share,
        share,
        fc.integer({ min: 120, max: 900 }),
        (sample, command, head, tail, budget) => {
          const view = projectResult(input(sample.kind, sample.toolName, sample.args, sample.text), {
            ...options,
            budgetTokens: budget,
            shares: { command, fileRead: { head, tail }, generic: { head, tail }, search: { head, tail }, listing: { head, tail } },
          });
          assert.ok(counter.count(view.text) <= budget, `${sample.name} at ${String(budget)}`);
        },
      ),
      { numRuns: 80 },
    );
  });

  const corpus = `${corpusDir()}/mini-swe-agent.jsonl.gz`;
  it(
    "on the corpus, every cut output's view is the same with a default-valued override",
    { skip: existsSync(corpus) ? false : `corpus absent (${corpus}); it is not part of a clone` },
    () => {
      const rows = gunzipSync(readFileSync(corpus))
        .toString("utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as { args: unknown; output: string; tool: string })
        .filter((row) => row.output.length > 4000);
      let compared = 0;
      for (const row of rows) {
        const command =
          typeof row.args === "string"
            ? row.args
            : typeof row.args === "object" && row.args !== null && typeof (row.args as { command?: unknown }).command === "string"
              ? (row.args as { command: string }).command
              : "";
        const sample = input(undefined, "bash", { command }, row.output);
        for (const budgetTokens of [400, 1600]) {
          const plain = projectResult(sample, { ...options, budgetTokens });
          if (plain.unchanged) continue;
          compared++;
          assert.deepEqual(projectResult(sample, { ...options, budgetTokens, shares: copied }), plain, command);
        }
      }
      assert.ok(compared > 100, `only ${String(compared)} views compared`);
    },
  );
});
