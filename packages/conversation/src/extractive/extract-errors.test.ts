import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decisiveErrorLine, failureOf, judgementOf } from "./extract-errors.js";

const text = (value: string): { type: "text"; text: string }[] => [{ type: "text", text: value }];

describe("decisiveErrorLine()", () => {
  const cases: [string, string, string | undefined][] = [
    [
      "a Python traceback: the exception line",
      'Traceback (most recent call last):\n  File "<string>", line 2, in <module>\n  File "/testbed/astropy/__init__.py", line 41, in <module>\n    from . import config\nModuleNotFoundError: No module named \'numpy\'\n',
      "ModuleNotFoundError: No module named 'numpy'",
    ],
    [
      "a traceback with stdout interleaved: the exception, not the stray line",
      'Traceback (most recent call last):\n  File "/t/x.py", line 5, in <module>\nTest 1: String content\n    return settings.X\n  File "/t/conf.py", line 57, in _setup\ndjango.core.exceptions.ImproperlyConfigured: Requested setting X, but settings are not configured.\n',
      "django.core.exceptions.ImproperlyConfigured: Requested setting X, but settings are not configured.",
    ],
    [
      "pytest: the short-summary verdict",
      "=================================== FAILURES ===================================\n___________________________________ test_add ___________________________________\n\n    def test_add():\n>       assert add(1, 2) == 4\nE       assert 3 == 4\n\ntests/test_x.py:4: AssertionError\n=========================== short test summary info ============================\nFAILED tests/test_x.py::test_add - assert 3 == 4\n========================= 1 failed, 1 passed in 0.05s ==========================\n",
      "FAILED tests/test_x.py::test_add - assert 3 == 4",
    ],
    [
      "tsc: the diagnostic",
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error.\n",
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
    ],
    [
      "node --test TAP: the failing test",
      "> t@1 test\n> node --test\n\nnot ok 1 - adds numbers\n  ---\n  error: 'Expected values to be strictly equal'\n  ...\n# fail 1\nnpm ERR! Test failed.\n",
      "not ok 1 - adds numbers",
    ],
    [
      "pip: the first ERROR line",
      "ERROR: Could not find a version that satisfies the requirement erfa (from versions: none)\nERROR: No matching distribution found for erfa\n",
      "ERROR: Could not find a version that satisfies the requirement erfa (from versions: none)",
    ],
    [
      "an editor's refusal: the label with its message",
      "ERROR:\nNo replacement was performed, old_str `x` did not appear verbatim in /w/a.py.",
      "ERROR: No replacement was performed, old_str `x` did not appear verbatim in /w/a.py.",
    ],
    ["shell: command not found", "bash: pytest: command not found\n", "bash: pytest: command not found"],
  ];
  for (const [title, output, expected] of cases) {
    it(title, () => {
      assert.equal(decisiveErrorLine(output, true), expected);
    });
  }

  it("falls back to an error word, then to the last line, only when loose", () => {
    assert.equal(decisiveErrorLine("building…\n/opt/bin/python3: No module named pytest\n", true), "/opt/bin/python3: No module named pytest");
    assert.equal(decisiveErrorLine("step 1\nstep 2\n\n", true), "step 2");
    assert.equal(decisiveErrorLine("step 1\nno module named x here\n", false), undefined);
  });

  it("finds the verdict at the end of a long output", () => {
    const output = `${"collecting item ok\n".repeat(20_000)}Traceback (most recent call last):\n  File "a.py", line 1, in <module>\nKeyError: 'user_id'\n`;
    assert.equal(decisiveErrorLine(output, true), "KeyError: 'user_id'");
  });

  it("cuts a long line to about 200 characters", () => {
    const line = decisiveErrorLine(`ValueError: ${"x".repeat(1000)}\n`, true) ?? "";
    assert.ok(line.startsWith("ValueError: ") && line.length <= 200, line);
  });
});

describe("failureOf()", () => {
  it("fails on isError or a non-zero exit code", () => {
    assert.equal(failureOf({ parts: text("boom\n"), isError: true }, "exit"), "boom");
    assert.equal(failureOf({ parts: [], isError: false, exitCode: 2 }, "exit"), "exit 2 (no output)");
    assert.equal(failureOf({ parts: text("fine\n"), isError: false, exitCode: 0 }, "exit"), undefined);
  });

  it("reads a successful run's output for evidence only when judged by output", () => {
    const output = { parts: text("FAILED tests/test_a.py::test_b - KeyError: 'x'\n== 1 failed in 0.1s ==\n"), isError: false, exitCode: 0 };
    assert.equal(failureOf(output, "output"), "FAILED tests/test_a.py::test_b - KeyError: 'x'");
    assert.equal(failureOf(output, "exit"), undefined);
  });

  it("takes grep's exit 1 without output as no match", () => {
    assert.equal(failureOf({ parts: [], isError: false, exitCode: 1 }, "search"), undefined);
    assert.equal(
      failureOf({ parts: text("grep: x: No such file or directory\n"), isError: false, exitCode: 2 }, "search"),
      "grep: x: No such file or directory",
    );
  });
});

describe("judgementOf()", () => {
  const cases: [string, string][] = [
    ["", "exit"],
    ["cat src/a.py | grep -n foo", "search"],
    ["cd /repo && sed -n '1,20p' a.py", "exit"],
    ["git diff", "exit"],
    ["python -m pytest -x 2>&1 | tail -20", "output"],
    ["sed -i 's/a/b/' a.py && python a.py", "output"],
  ];
  for (const [command, expected] of cases) {
    it(`${command || "(no command)"} → ${expected}`, () => {
      assert.equal(judgementOf(command), expected);
    });
  }
});
