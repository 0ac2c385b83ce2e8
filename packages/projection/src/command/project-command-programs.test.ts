import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { installedFile } from "../testing/installed-file.js";
import { createTokenCounter } from "../token-counter.js";
import { projectCommand } from "./project-command.js";
import { fitsInHalf, shownLineNumbers } from "./testing/view-lines.js";

// Real programs, run for real: the error lines each case knows (test names it wrote, lines where it put
// type errors) are found by the case itself, never by the projector's classifier.
const counter = createTokenCounter();
// The workspace's own TypeScript compiler, resolved from this checkout.
const TSC = `node ${installedFile("typescript/bin/tsc")}`;
const BUDGETS = [2000, 500];

interface Run {
  output: string;
  exitCode: number;
  durationMs: number;
}

function run(command: string, cwd: string): Run {
  // A node --test child would otherwise report to this test runner instead of printing its own output.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const started = Date.now();
  const result = spawnSync("bash", ["-c", `${command} 2>&1`], { cwd, env, encoding: "utf8", timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { output: result.stdout, exitCode: result.status ?? -1, durationMs: Date.now() - started };
}

function hasCommand(command: string): boolean {
  return spawnSync("bash", ["-c", command], { encoding: "utf8", timeout: 60_000 }).status === 0;
}

interface Case {
  command: string;
  run: Run;
  /** 1-based numbers of the lines that must survive when they fit in half the budget. */
  known: number[];
  /** 1-based number of the runner's verdict line, when it prints one. */
  summary: number | undefined;
}

/** Projects a real run at each budget and checks the invariants and the evidence. */
function checkCase(name: string, test: Case): void {
  const lines = splitLines(test.run.output);
  assert.ok(counter.count(test.run.output) > 2000, `${name}: the output is long (${String(counter.count(test.run.output))} tokens)`);
  assert.ok(test.known.length > 0, `${name}: the case found its error lines`);
  for (const budgetTokens of BUDGETS) {
    const options = { budgetTokens, maxViewBytes: 50_000, counter, resultId: `r_${name}`, view: "" };
    const input = {
      text: test.run.output,
      lines,
      toolName: "bash",
      args: { command: test.command },
      isError: test.run.exitCode !== 0,
      exitCode: test.run.exitCode,
      timedOut: false,
      durationMs: test.run.durationMs,
    };
    const view = projectCommand(input, options);
    checkLineView(test.run.output, view, options);
    const shown = shownLineNumbers(view, lines.length);
    const header = view.text.split("\n", 1)[0] ?? "";
    assert.ok(header.includes(`exit ${String(test.run.exitCode)}`), `${name}@${String(budgetTokens)}: exit status in the header: ${header}`);
    if (test.run.exitCode !== 0) assert.ok(header.includes("(failed)"), `${name}@${String(budgetTokens)}: failure in the header`);
    assert.ok(shown.has(lines.length), `${name}@${String(budgetTokens)}: the last line`);
    if (test.summary !== undefined) assert.ok(shown.has(test.summary), `${name}@${String(budgetTokens)}: the summary line ${lines[test.summary - 1] ?? ""}`);
    const fits = fitsInHalf(lines, test.known, budgetTokens, counter, options.resultId);
    const kept = test.known.filter((line) => shown.has(line)).length;
    console.log(
      `${name}@${String(budgetTokens)}: ${String(lines.length)} lines; error lines kept ${String(kept)}/${String(test.known.length)}; fit in half the budget: ${fits ? "yes" : "no"}`,
    );
    if (process.env.LOUPE_SHOW_VIEWS === "1") console.log(view.text);
    if (budgetTokens === 2000) assert.ok(fits, `${name}: its error lines fit in half of 2,000 tokens`);
    if (!fits) continue;
    for (const line of test.known) assert.ok(shown.has(line), `${name}@${String(budgetTokens)}: error line ${String(line)} missing: ${lines[line - 1] ?? ""}`);
  }
}

function lineNumbers(output: string, predicate: (line: string) => boolean): number[] {
  return splitLines(output).flatMap((line, index) => (predicate(line) ? [index + 1] : []));
}

function lastMatching(output: string, predicate: (line: string) => boolean): number | undefined {
  return lineNumbers(output, predicate).pop();
}

describe("projectCommand() on real program output", () => {
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "loupe-command-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("node --test: three failing tests among 200 passing ones", () => {
    const failing = ["fails_alpha_marker", "fails_bravo_marker", "fails_charlie_marker"];
    const tests = Array.from(
      { length: 200 },
      (_, index) => `test("passes number ${String(index)}", () => { console.log("log output of test ${String(index)}: all values nominal"); });`,
    );
    tests.splice(17, 0, `test("${failing[0] ?? ""}", () => { assert.equal(1, 2); });`);
    tests.splice(120, 0, `test("${failing[1] ?? ""}", () => { assert.deepEqual({ a: 1 }, { a: 2 }); });`);
    tests.splice(190, 0, `test("${failing[2] ?? ""}", () => { throw new Error("boom from charlie"); });`);
    writeFileSync(join(dir, "suite.test.mjs"), `import { test } from "node:test";\nimport assert from "node:assert/strict";\n${tests.join("\n")}\n`);
    const result = run("node --test-reporter=tap --test suite.test.mjs", dir);
    assert.notEqual(result.exitCode, 0);
    const known = lineNumbers(result.output, (line) => line.startsWith("not ok") && failing.some((name) => line.includes(name)));
    assert.equal(known.length, 3);
    checkCase("node-test", {
      command: "node --test suite.test.mjs",
      run: result,
      known,
      summary: lastMatching(result.output, (line) => line === "# fail 3\n"),
    });
  });

  it("python -m unittest: three known failures among 200 passing tests", () => {
    const methods = Array.from(
      { length: 200 },
      (_, index) =>
        `    def test_ok_${String(index)}(self):\n        print("progress of case ${String(index)}: values nominal")\n        self.assertTrue(True)\n`,
    );
    const failing = ["test_fails_alpha", "test_fails_bravo", "test_fails_charlie"];
    failing.forEach((name, index) =>
      methods.splice(40 + index * 60, 0, `    def ${name}(self):\n        self.assertEqual(${String(index)}, 99, "marker_${name}")\n`),
    );
    writeFileSync(join(dir, "test_things.py"), `import unittest\n\nclass Things(unittest.TestCase):\n${methods.join("")}\n`);
    const result = run("python3 -m unittest -v test_things", dir);
    assert.equal(result.exitCode, 1);
    const known = lineNumbers(
      result.output,
      (line) => (line.startsWith("FAIL: ") || line.startsWith("AssertionError: ")) && failing.some((name) => line.includes(name)),
    );
    assert.equal(known.length, 6);
    checkCase("unittest", {
      command: "python3 -m unittest -v test_things",
      run: result,
      known,
      summary: lastMatching(result.output, (line) => line.startsWith("FAILED (failures=3)")),
    });
  });

  it("python -m pytest: three known failures, the short summary block whole", (t) => {
    // The machine's python3, else Debian's (where scripts/install-tools.sh puts python3-pytest).
    const python = ["python3", "/usr/bin/python3"].find((candidate) => hasCommand(`${candidate} -m pytest --version`));
    if (python === undefined) {
      t.skip("pytest is not installed (scripts/install-tools.sh installs python3-pytest)");
      return;
    }
    const cases = Array.from({ length: 200 }, (_, index) => `def test_ok_${String(index)}():\n    print("noise ${String(index)}")\n    assert True\n`);
    const failing = ["test_fails_alpha", "test_fails_bravo", "test_fails_charlie"];
    failing.forEach((name, index) =>
      cases.splice(30 + index * 70, 0, `def ${name}():\n    value = ${String(index)}\n    assert value == 42, "marker_${name}"\n`),
    );
    mkdirSync(join(dir, "pytest_case"));
    writeFileSync(join(dir, "pytest_case", "test_many.py"), cases.join("\n"));
    const result = run(`${python} -m pytest -v -p no:cacheprovider test_many.py`, join(dir, "pytest_case"));
    assert.equal(result.exitCode, 1);
    const known = lineNumbers(result.output, (line) => line.startsWith("FAILED test_many.py::") && failing.some((name) => line.includes(name)));
    assert.equal(known.length, 3);
    checkCase("pytest", {
      command: "python3 -m pytest -v test_many.py",
      run: result,
      known,
      summary: lastMatching(result.output, (line) => /^=+ 3 failed, 200 passed/.test(line)),
    });
  });

  it("tsc: known type errors in known files and lines, after hundreds of lines of build noise", () => {
    const project = join(dir, "ts_case");
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "ES2022", module: "ES2022" }, include: ["src"] }),
    );
    const errors = [
      { file: "src/alpha.ts", line: 3, code: `const count: number = "three";` },
      { file: "src/alpha.ts", line: 7, code: `export const missing = notDefinedAnywhere + 1;` },
      { file: "src/bravo.ts", line: 12, code: `export function f(x: string): number { return x; }` },
      { file: "src/charlie.ts", line: 25, code: `export const y: boolean = 42;` },
    ];
    for (const file of ["src/alpha.ts", "src/bravo.ts", "src/charlie.ts"]) {
      const body = Array.from({ length: 30 }, (_, index) => `export const filler_${String(index)} = ${String(index)};`);
      for (const error of errors.filter((entry) => entry.file === file)) body[error.line - 1] = error.code;
      writeFileSync(join(project, file), body.join("\n") + "\n");
    }
    const noise = `for i in $(seq 1 400); do echo "[build] step $i: compiled module_$i in 12ms"; done`;
    const result = run(`${noise}; ${TSC} -p . --pretty false --listFiles`, project);
    assert.notEqual(result.exitCode, 0);
    const known = lineNumbers(result.output, (line) => errors.some((error) => line.startsWith(`${error.file}(${String(error.line)},`)));
    assert.equal(known.length, errors.length);
    checkCase("tsc", { command: "tsc -p . --pretty false --listFiles", run: result, known, summary: undefined });
  });

  it("gcc: known errors among hundreds of warnings", () => {
    const body = ["#include <stdio.h>", "int main(void) {"];
    for (let index = 0; index < 150; index++) body.push(`  int unused_${String(index)} = ${String(index)};`);
    const errorLines: number[] = [];
    for (const statement of ["  undeclared_alpha = 1;", "  int z = undeclared_bravo;", '  int w = "text" * 2;']) {
      body.push(statement);
      errorLines.push(body.length);
    }
    body.push("  return 0;", "}");
    writeFileSync(join(dir, "prog.c"), body.join("\n") + "\n");
    const result = run("gcc -Wall -Wextra -c prog.c -o prog.o", dir);
    assert.notEqual(result.exitCode, 0);
    const known = lineNumbers(result.output, (line) => errorLines.some((number) => line.startsWith(`prog.c:${String(number)}:`) && line.includes(" error: ")));
    assert.equal(known.length, errorLines.length);
    checkCase("gcc", { command: "gcc -Wall -Wextra -c prog.c", run: result, known, summary: undefined });
  });

  it("5,000 progress lines redrawn with \\r, then a traceback", () => {
    const script = [
      "import sys",
      "def fail_here():",
      "    raise RuntimeError('disk quota exceeded marker_progress')",
      "for i in range(5000):",
      "    sys.stdout.write(f'\\rdownloading part {i}: 0%')",
      "    sys.stdout.write(f'\\rdownloading part {i}: 50%')",
      "    sys.stdout.write(f'\\rdownloading part {i}: 100%\\n')",
      "sys.stdout.flush()",
      "fail_here()",
    ].join("\n");
    writeFileSync(join(dir, "progress.py"), script + "\n");
    const result = run("python3 progress.py", dir);
    assert.equal(result.exitCode, 1);
    const known = lineNumbers(
      result.output,
      (line) => line.startsWith("RuntimeError: disk quota exceeded marker_progress") || line.includes('progress.py", line 3, in fail_here'),
    );
    assert.equal(known.length, 2);
    checkCase("progress", { command: "python3 progress.py", run: result, known, summary: undefined });
    const view = projectCommand(
      {
        text: result.output,
        lines: splitLines(result.output),
        toolName: "bash",
        args: { command: "python3 progress.py" },
        isError: true,
        exitCode: 1,
        timedOut: false,
        durationMs: result.durationMs,
      },
      { budgetTokens: 500, maxViewBytes: 50_000, counter, resultId: "r_progress", view: "" },
    );
    assert.ok(
      view.text.includes("\rdownloading part 0: 100%\n") === false && view.text.includes("downloading part 0: 100%\n"),
      "a redrawn line in its final state",
    );
  });
});
