import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { splitLines } from "../split-lines.js";
import { classifyLines, type LineKind } from "./classify-lines.js";

function kindsOf(text: string): LineKind[] {
  return classifyLines(splitLines(text));
}

// One line on its own, as each tool prints it.
const SINGLE_LINES: Array<[string, LineKind]> = [
  // Summaries.
  ["==================== 3 failed, 200 passed, 2 warnings in 1.23s ====================", "summary"],
  ["3 failed, 200 passed in 0.52s", "summary"],
  ["========================= no tests ran in 0.01s =========================", "summary"],
  ["Ran 72 tests in 0.303s", "summary"],
  ["FAILED (failures=2)", "summary"],
  ["FAILED (errors=1, skipped=21)", "summary"],
  ["OK", "summary"],
  ["Tests:       3 failed, 200 passed, 203 total", "summary"],
  ["# pass 200", "summary"],
  ["# fail 3", "summary"],
  ["ℹ fail 3", "summary"],
  ["test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s", "summary"],
  ["ok  \texample.com/pkg\t0.012s", "summary"],
  ["FAIL\texample.com/pkg\t0.012s", "summary"],
  ["Found 4 errors in 2 files.", "summary"],
  ["✖ 5 problems (3 errors, 2 warnings)", "summary"],
  ["2 errors generated.", "summary"],
  ['warning: `demo` (bin "demo") generated 3 warnings', "summary"],
  ["  12 passing (30ms)", "summary"],
  // Failing test names.
  ["FAILED tests/test_x.py::test_y - AssertionError: assert 1 == 2", "failure"],
  ["ERROR tests/test_x.py::test_setup - ModuleNotFoundError", "failure"],
  ["tests/test_x.py::test_y FAILED                                   [ 50%]", "failure"],
  ["FAIL: test_bad (tests.mod.Case.test_bad)", "failure"],
  ["ERROR: test_broken (tests.mod.Case)", "failure"],
  ["test_bad (tests.mod.Case) ... FAIL", "failure"],
  ["test tests::adds ... FAILED", "failure"],
  ["not ok 3 - fails with a known name", "failure"],
  ["    not ok 1 - nested", "failure"],
  ["✖ fails with a known name (1.2ms)", "failure"],
  ["  ✕ adds numbers (3 ms)", "failure"],
  ["  ● Math › adds numbers", "failure"],
  ["FAIL src/math.test.js", "failure"],
  ["--- FAIL: TestAdd (0.00s)", "failure"],
  ["____________________________ test_y ____________________________", "failure"],
  // Diagnostics with a location.
  ["src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.", "diagnostic"],
  ["a.c:3:5: error: 'y' undeclared (first use in this function)", "diagnostic"],
  ["a.c:1:10: fatal error: missing.h: No such file or directory", "diagnostic"],
  ["./main.go:3:5: undefined: foo", "diagnostic"],
  ["error[E0308]: mismatched types", "diagnostic"],
  // Errors without a location.
  ["E       AssertionError: assert 1 == 2", "error"],
  ["tests/test_x.py:12: AssertionError", "error"],
  ["ModuleNotFoundError: No module named 'pytest'", "error"],
  ["fatal: not a git repository (or any of the parent directories): .git", "error"],
  ["Error: Cannot find module 'left-pad'", "error"],
  ["gcc: error: nothing.c: No such file or directory", "error"],
  ["npm ERR! code ELIFECYCLE", "error"],
  ["make: *** [Makefile:3: all] Error 1", "error"],
  ["thread 'main' panicked at src/main.rs:2:5:", "error"],
  ["bash: foo: command not found", "error"],
  // Warnings.
  ["a.c:2:9: warning: unused variable 'z' [-Wunused-variable]", "warning"],
  ["warning: unused variable: `x`", "warning"],
  ["/testbed/x.py:3: DeprecationWarning: this is old", "warning"],
  // Frames (outside a traceback).
  ["    at Object.<anonymous> (/work/app/src/index.js:3:9)", "frame"],
  ["    at Module._compile (node:internal/modules/cjs/loader:1256:14)", "library_frame"],
  ["    at run (/work/app/node_modules/lib/index.js:1:2)", "library_frame"],
  ["tests/test_x.py:7: in helper", "frame"],
  // Ordinary output that looks close.
  ["All good: 0 errors handled", "ordinary"],
  ["Processing error handling module", "ordinary"],
  ["test_thing (tests.mod.Case) ... ok", "ordinary"],
  ["ok 1 - passes", "ordinary"],
  ["Compiling demo v0.1.0", "ordinary"],
];

describe("classifyLines()", () => {
  for (const [line, kind] of SINGLE_LINES) {
    it(`classifies ${JSON.stringify(line)} as ${kind}`, () => {
      assert.deepEqual(kindsOf(line + "\n"), [kind]);
    });
  }

  it("follows a Python traceback: header, repository and library frames with their source, the exception line", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "/testbed/app/run.py", line 12, in main',
      "    helper()",
      '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads',
      "    return _default_decoder.decode(s)",
      "           ^^^^^^^^^^^^^^^^^^^^^^^^^^",
      '  File "/venv/lib/python3.11/site-packages/lib/x.py", line 3, in f',
      "    raise ValueError('bad')",
      "ValueError: bad",
      "after",
    ].join("\n");
    assert.deepEqual(kindsOf(text), [
      "trace_header",
      "frame",
      "frame",
      "library_frame",
      "library_frame",
      "library_frame",
      "library_frame",
      "library_frame",
      "error",
      "ordinary",
    ]);
  });

  it("ends a traceback at its exception line, whatever the exception's name", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "/testbed/app.py", line 3, in <module>',
      "    setup()",
      "django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS",
      "next",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["trace_header", "frame", "frame", "error", "ordinary"]);
  });

  it("gives the same kinds whether it scans for candidate lines first or matches every line", () => {
    const samples = [
      ...SINGLE_LINES.map(([line]) => line),
      "Traceback (most recent call last):",
      '  File "/x/y.py", line 1, in f',
      "    code()",
      "ValueError: x",
      "  ---",
      "  ...",
      "    3 |   x",
      "      |   ^",
      " --> src/a.rs:1:2",
      "=== FAILURES ===",
      "> assert x",
      ">       assert x",
      "E       assert 0",
      "",
      "   ",
      "plain output 123",
      "at the end",
      "\u{1F600}",
      "50%\r100%",
      "  at f (node:internal/x:1:2)",
    ];
    const line = fc.oneof(
      fc.constantFrom(...samples),
      fc.string({ maxLength: 30 }),
      fc.constantFrom("ok", "OK", "PASS", "#", "E", "R", "___", "make", "npm ERR! x", "Ran 3 tests in 1s"),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n", "\r\n")), { maxLength: 80 }), (entries) => {
        const lines = entries.map(([text, ending]) => text + ending);
        assert.deepEqual(classifyLines(lines), classifyLines(lines, { everyLine: true }));
      }),
      { numRuns: 400 },
    );
  });

  it("keeps a SyntaxError's caret with its frame and chains tracebacks", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "/testbed/x.py", line 3',
      "    def f(:",
      "          ^",
      "SyntaxError: invalid syntax",
      "",
      "During handling of the above exception, another exception occurred:",
      "",
      "Traceback (most recent call last):",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["trace_header", "frame", "frame", "frame", "error", "ordinary", "detail", "ordinary", "trace_header"]);
  });

  it("ends a traceback at the exception raised, a warning class too", () => {
    const text = [
      "Traceback (most recent call last):",
      '  File "/testbed/pkg/shapes.py", line 278, in ShapedLikeNDArray',
      "    for name in np.core.fromnumeric.__all__",
      "DeprecationWarning: numpy.core is deprecated and has been renamed to numpy._core",
      "/testbed/x.py:3: DeprecationWarning: this is old",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["trace_header", "frame", "frame", "error", "warning"]);
  });

  it("takes the place Node prints above an uncaught error as the frame it was thrown in, with its code and caret", () => {
    const text = [
      "step 3 done",
      "/app/src/thrower.js:3",
      '  if (Array.isArray(value)) throw new TypeError("bad value");',
      "                            ^",
      "",
      "TypeError: bad value",
      "    at encodeValue (/app/src/thrower.js:3:35)",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["ordinary", "frame", "frame", "frame", "ordinary", "error", "frame"]);
    assert.deepEqual(kindsOf(text.replace("/app/src/thrower.js:3", "node:events:502")).slice(1, 4), ["library_frame", "library_frame", "library_frame"]);
  });

  it("follows a JVM stack trace: the exception and its cause, the program's frames, library frames, the elided rest", () => {
    const text = [
      'Exception in thread "main" java.lang.IllegalStateException: could not load config',
      "\tat com.acme.app.Config.load(Config.java:42)",
      "Caused by: java.io.FileNotFoundException: /etc/acme.conf (No such file or directory)",
      "\tat java.base/java.io.FileInputStream.open0(Native Method)",
      "\tat org.junit.runners.ParentRunner.run(ParentRunner.java:413)",
      "\tat com.acme.app.Config.read(Config.java:77)",
      "\t... 2 more",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["error", "frame", "error", "library_frame", "library_frame", "frame", "detail"]);
  });

  it("follows a Go panic's trace: each call with its place, Go's runtime as library, elided frames as detail", () => {
    const text = [
      "panic: runtime error: index out of range [5] with length 3",
      "",
      "goroutine 1 [running]:",
      "main.lookup(...)",
      "\t/home/u/app/main.go:8",
      "runtime.gopanic({0x4a2b60?, 0xc000012345?})",
      "\t/usr/local/go/src/runtime/panic.go:770 +0x132",
      "main.main()",
      "\t/home/u/app/main.go:12 +0x1d",
      "...3 frames elided...",
      "exit status 2",
    ].join("\n");
    assert.deepEqual(kindsOf(text), [
      "error",
      "ordinary",
      "detail",
      "frame",
      "frame",
      "library_frame",
      "library_frame",
      "frame",
      "frame",
      "detail",
      "ordinary",
    ]);
  });

  it("follows every goroutine's trace after a Go fatal error, and none without one", () => {
    const traces = [
      "goroutine 1 [chan receive]:",
      "main.main()",
      "\t/app/main.go:9 +0x1d",
      "",
      "goroutine 7 [select]:",
      "main.worker(...)",
      "\t/app/worker.go:30",
    ];
    const text = ["fatal error: all goroutines are asleep - deadlock!", "", ...traces].join("\n");
    assert.deepEqual(kindsOf(text), ["error", "ordinary", "detail", "frame", "frame", "ordinary", "detail", "frame", "frame"]);
    assert.ok(kindsOf(["progress report", "", ...traces].join("\n")).every((kind) => kind === "ordinary"));
  });

  it("follows a Rust panic: its message, the backtrace's frames with their places, Rust's library as library", () => {
    for (const panic of ["thread 'main' (16265) panicked at src/main.rs:1:41:", "thread 'main' panicked at src/main.rs:1:41:"]) {
      const text = [
        panic,
        "assertion `left == right` failed: two and two",
        "  left: 4",
        " right: 5",
        "stack backtrace:",
        "   0: __rustc::rust_begin_unwind",
        "             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5",
        "   3: app::lookup",
        "             at ./src/main.rs:1:41",
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
      ].join("\n");
      assert.deepEqual(kindsOf(text), ["error", "error", "error", "error", "detail", "library_frame", "library_frame", "frame", "frame", "detail"]);
    }
  });

  it("keeps pytest's short test summary block whole, ending at the final tally", () => {
    const text = [
      "=========================== short test summary info ============================",
      "FAILED tests/a.py::test_1 - assert 0",
      "ERROR tests/b.py - ImportError",
      "========================= 1 failed, 1 error in 0.10s =========================",
      "after",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["summary_block", "summary_block", "summary_block", "summary", "ordinary"]);
  });

  it("follows a pytest failure section: source as detail, the failing line as a frame, E lines as errors", () => {
    const text = [
      "___________________________________ test_y ___________________________________",
      "",
      "    def test_y():",
      ">       assert add(1, 1) == 3",
      "E       assert 2 == 3",
      "",
      "tests/test_x.py:5: AssertionError",
      "=========================== short test summary info ============================",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["failure", "ordinary", "detail", "frame", "error", "ordinary", "error", "summary_block"]);
  });

  it("attaches gcc and rustc excerpts, carets, locations and notes to their diagnostic", () => {
    const gcc = [
      "a.c: In function 'main':",
      "a.c:3:13: error: 'y' undeclared (first use in this function)",
      "    3 |     int x = y;",
      "      |             ^",
      "a.c:3:13: note: each undeclared identifier is reported only once",
      "done",
    ].join("\n");
    assert.deepEqual(kindsOf(gcc), ["ordinary", "diagnostic", "detail", "detail", "detail", "ordinary"]);
    const rust = [
      "error[E0308]: mismatched types",
      " --> src/main.rs:2:18",
      "  |",
      '2 |     let x: i32 = "a";',
      "  |            ---   ^^^ expected `i32`, found `&str`",
      "",
      "For more information about this error, try `rustc --explain E0308`.",
    ].join("\n");
    assert.deepEqual(kindsOf(rust), ["diagnostic", "detail", "detail", "detail", "detail", "ordinary", "ordinary"]);
  });

  it("reads eslint's file path as the location of the rows below it", () => {
    const text = [
      "/work/app/src/a.js",
      "  1:10  error    'x' is defined but never used  no-unused-vars",
      "  3:1   warning  Unexpected console statement   no-console",
      "",
      "✖ 2 problems (1 error, 1 warning)",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["diagnostic", "error", "warning", "ordinary", "summary"]);
  });

  it("reads a TAP failure's YAML block as its detail", () => {
    const text = [
      "not ok 2 - fails",
      "  ---",
      "  duration_ms: 0.5",
      "  error: 'Expected values to be strictly equal'",
      "  stack: |-",
      "    at TestContext.<anonymous> (file:///t/x.mjs:5:10)",
      "  ...",
      "ok 3 - passes",
    ].join("\n");
    assert.deepEqual(kindsOf(text), ["failure", "detail", "detail", "detail", "detail", "detail", "detail", "ordinary"]);
  });

  it("classifies a progress bar by its final state and a huge line by its start", () => {
    assert.deepEqual(kindsOf(" 10%\r 50%\rerror: download failed\n"), ["error"]);
    assert.deepEqual(kindsOf("error: " + "x".repeat(100_000) + "\n"), ["error"]);
  });
});
