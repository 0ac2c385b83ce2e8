import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { createTokenCounter } from "../token-counter.js";
import { projectCommand } from "./project-command.js";
import { shownLineNumbers } from "./testing/view-lines.js";

// Real runs that end in an error: a Python chain (the exception raised deep down, then "The above exception
// was the direct cause of the following exception:" and the traceback that reached the top, whose outermost
// frame is the script's own line that started it all), an uncaught Node error (the place it was thrown, its
// line of code and a caret, above the error and its stack), a Python chain whose second traceback repeats the first's
// frames, a JVM chain ("Caused by: …" below the exception) and a
// Rust panic with its backtrace.
const counter = createTokenCounter();
const DEPTH = 24;
const RESULT_ID = "r_FfpXFlK5jRggbEzbCZVezol_ccUKdQ-d";

/** A real run: its stdout and stderr as one output, its exit status, and its lines. */
function runOf(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): { output: string; status: number; lines: string[] } {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 120_000 });
  const output = `${result.stdout}${result.stderr}`;
  return { output, status: result.status ?? -1, lines: splitLines(output) };
}

/** The 1-based number of the first line of `lines` that `predicate` accepts (0 when none). */
function numberOf(lines: readonly string[], predicate: (line: string) => boolean): number {
  return lines.findIndex(predicate) + 1;
}

/**
 * Projects a run's output as the command's at each budget — bounded, whole lines, recoverable
 * (checkLineView) — and asserts every line of `wanted` is shown. Returns the shown lines per budget.
 */
function assertShown(
  run: { output: string; status: number; lines: string[] },
  command: string,
  wanted: Readonly<Record<string, number>>,
  budgets: readonly number[],
): Array<Set<number>> {
  return budgets.map((budgetTokens) => {
    const options = { budgetTokens, maxViewBytes: 50_000, counter, resultId: RESULT_ID, view: "" };
    const input = {
      text: run.output,
      lines: run.lines,
      toolName: "bash",
      args: { command },
      isError: true,
      exitCode: run.status,
      timedOut: false,
      durationMs: 50,
    };
    const view = projectCommand(input, options);
    checkLineView(run.output, view, options);
    const shown = shownLineNumbers(view, run.lines.length);
    for (const [what, line] of Object.entries(wanted))
      assert.ok(shown.has(line), `@${String(budgetTokens)}: ${what} (line ${String(line)}) missing:\n${view.text}`);
    return shown;
  });
}

function chainedScript(): string {
  const levels = Array.from({ length: DEPTH }, (_, level) =>
    level === DEPTH - 1
      ? `def level_${String(level)}(value):\n    try:\n        encode(value)\n    except TypeError as exc:\n        raise ValueError(f"with tag (0066, 0040): {exc}") from exc\n`
      : `def level_${String(level)}(value):\n    return level_${String(level + 1)}(value)\n`,
  );
  return [
    `for index in range(30):\n    print(f"step {index}: loading record {index} of the batch")\n`,
    `def encode(value):\n    raise TypeError("a bytes-like object is required, not 'list'")\n`,
    ...levels,
    `level_0([1, 2, 3])  # save_marker\n`,
  ].join("\n");
}

describe("projectCommand() on real tracebacks", () => {
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "loupe-traceback-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the ends of each traceback (the script's own line, both exceptions) before the frames between", (t) => {
    const python = ["python3", "/usr/bin/python3"].find((candidate) => spawnSync(candidate, ["--version"]).status === 0);
    if (python === undefined) return t.skip("python3 is not installed (scripts/install-tools.sh installs it)");
    writeFileSync(join(dir, "chained.py"), chainedScript());
    const run = runOf(python, ["chained.py"], dir);
    assert.equal(run.status, 1);
    const { lines } = run;
    const scriptLine = numberOf(lines, (line) => line.includes("# save_marker"));
    const firstException = numberOf(lines, (line) => line.startsWith("TypeError: "));
    const lastException = numberOf(lines, (line) => line.startsWith("ValueError: "));
    const cause = numberOf(lines, (line) => line.startsWith("The above exception was the direct cause"));
    assert.ok(scriptLine > cause && firstException < cause && lastException === lines.length, "the run printed a chain of two tracebacks");
    const middleFrames = lines.flatMap((line, index) =>
      index + 1 > scriptLine + 6 && index + 1 < lastException - 6 && line.includes("in level_") ? [index + 1] : [],
    );
    const wanted = { "the script's own line": scriptLine, "the first exception": firstException, "the last exception": lastException };
    for (const shown of assertShown(run, "python3 chained.py", wanted, [400, 500, 700])) {
      // Frames in the middle of the long traceback give way to the ends of both.
      assert.ok(
        middleFrames.some((line) => !shown.has(line)),
        `the budget is small enough to leave frames out (${String(middleFrames.length)} middle frames)`,
      );
    }
  });

  it("gives a chain's repeated frames way to the frames seen once: the handler that walked the same path again", (t) => {
    const python = ["python3", "/usr/bin/python3"].find((candidate) => spawnSync(candidate, ["--version"]).status === 0);
    if (python === undefined) return t.skip("python3 is not installed (scripts/install-tools.sh installs it)");
    // A request resolved through eight levels fails; its error page resolves the same path again and fails the same
    // way, so the second traceback repeats the first's frames and adds only the handler's two.
    const levels = Array.from({ length: 8 }, (_, level) =>
      level === 7
        ? `def level_${String(level)}(path):\n    raise LookupError(f"{path} not found")\n`
        : `def level_${String(level)}(path):\n    return level_${String(level + 1)}(path)\n`,
    );
    const script = [
      `for index in range(40):\n    print(f"step {index}: loading record {index} of the batch")\n`,
      ...levels,
      `def error_page_marker(path):\n    return level_0(path)\n`,
      `def respond(path):\n    try:\n        return level_0(path)\n    except LookupError:\n        return error_page_marker(path)\n`,
      `respond("/missing")\n`,
    ].join("\n");
    writeFileSync(join(dir, "repeated.py"), script);
    const run = runOf(python, ["repeated.py"], dir);
    assert.equal(run.status, 1);
    const { lines } = run;
    const during = numberOf(lines, (line) => line.startsWith("During handling of the above exception"));
    const handler = lines.findIndex((line, index) => index + 1 > during && line.includes("in error_page_marker")) + 1;
    assert.ok(during > 0 && handler > during, `the run printed a chain whose second traceback passes through the handler:\n${run.output}`);
    assertShown(run, "python3 repeated.py", { "the handler's frame": handler, "the handler's line": handler + 1 }, [400, 500]);
  });

  it("keeps where an uncaught Node error was thrown: the place, its line of code and the caret", () => {
    // The steps are written synchronously (console.log writes to a pipe asynchronously on POSIX), so none can
    // still be queued when the uncaught error ends the process: one clone run once failed the check on the
    // place of the throw below, which needs all 300 steps before it (not reproduced).
    const script = [
      'const { writeSync } = require("node:fs");',
      "for (let index = 0; index < 300; index++) writeSync(1, `step ${index}: loading record ${index} of the batch\\n`);",
      "function encodeValue(value) {",
      '  if (Array.isArray(value)) throw new TypeError("a bytes-like object is required, not an array");',
      "}",
      "function saveAs(target) { encodeValue([1, 2, 3]); }",
      'saveAs("out_marker.dcm");',
    ].join("\n");
    writeFileSync(join(dir, "thrower.js"), script);
    const run = runOf(process.execPath, ["thrower.js"], dir);
    assert.equal(run.status, 1);
    const place = numberOf(run.lines, (line) => /thrower\.js:4\n$/.test(line));
    assert.ok(place > 300 && (run.lines[place] ?? "").includes("throw new TypeError"), `node printed the place of the throw:\n${run.output.slice(-800)}`);
    assertShown(run, "node thrower.js", { "the place": place, "its line of code": place + 1, "the caret": place + 2 }, [300, 500]);
  });

  it("keeps both ends of a JVM chain: the exception, its cause and the cause's own frame in the program", (t) => {
    if (spawnSync("javac", ["-version"]).status !== 0) return t.skip("javac is not installed");
    const source = [
      "public class Chain {",
      "  static void readDeep(int depth, String path) throws java.io.IOException {",
      "    if (depth > 0) { readDeep(depth - 1, path); return; }",
      "    new java.io.FileInputStream(path).close();",
      "  }",
      "  static void deep(int depth, String path) {",
      "    if (depth > 0) { deep(depth - 1, path); return; }",
      '    try { readDeep(40, path); } catch (java.io.IOException e) { throw new IllegalStateException("could not load config_marker", e); }',
      "  }",
      "  public static void main(String[] args) {",
      '    for (int i = 0; i < 300; i++) System.out.println("step " + i + ": loading record " + i + " of the batch");',
      '    deep(40, "/nonexistent/acme.conf");',
      "  }",
      "}",
    ].join("\n");
    writeFileSync(join(dir, "Chain.java"), source);
    assert.equal(spawnSync("javac", ["Chain.java"], { cwd: dir }).status, 0);
    const run = runOf("java", ["-cp", ".", "Chain"], dir);
    assert.equal(run.status, 1);
    const wanted = {
      "the exception": numberOf(run.lines, (line) => line.startsWith("Exception in thread") && line.includes("config_marker")),
      "its cause": numberOf(run.lines, (line) => line.startsWith("Caused by: java.io.FileNotFoundException")),
      "the cause's frame in the program": numberOf(run.lines, (line) => line.includes("at Chain.readDeep(Chain.java:4)")),
    };
    assert.ok(
      Object.values(wanted).every((line) => line > 300),
      `java printed a chain:\n${run.output.slice(-1500)}`,
    );
    assertShown(run, "java Chain", wanted, [300, 500]);
  });

  it("keeps a Rust panic's message and the program's frames of its backtrace", (t) => {
    if (spawnSync("rustc", ["--version"]).status !== 0) return t.skip("rustc is not installed");
    const source = [
      "fn lookup(values: &[i32], index: usize) -> i32 { values[index] }",
      "fn main() {",
      '    for step in 0..300 { println!("step {step}: loading record {step} of the batch"); }',
      "    let values = vec![1, 2, 3];",
      '    println!("{}", lookup(&values, 5));',
      "}",
    ].join("\n");
    writeFileSync(join(dir, "panics.rs"), source);
    assert.equal(spawnSync("rustc", ["-g", "panics.rs", "-o", "panics"], { cwd: dir, timeout: 120_000 }).status, 0);
    const run = runOf(join(dir, "panics"), [], dir, { ...process.env, RUST_BACKTRACE: "1" });
    assert.equal(run.status, 101);
    const wanted = {
      "the panic": numberOf(run.lines, (line) => /^thread 'main'.* panicked at /.test(line)),
      "its message": numberOf(run.lines, (line) => line.startsWith("index out of bounds")),
      "the frame that panicked": numberOf(run.lines, (line) => /^\s+\d+: panics::lookup/.test(line)),
    };
    assert.ok(
      Object.values(wanted).every((line) => line > 300),
      `the run panicked with a backtrace:\n${run.output.slice(-1500)}`,
    );
    assertShown(run, "./panics", wanted, [300, 500]);
  });

  it("writes later gap notices briefly, each omission keeping its whole continuation", () => {
    const text = Array.from({ length: 300 }, (_, index) =>
      index % 50 === 25 ? `error: failure number ${String(index)}` : `line ${String(index)} of ordinary output`,
    ).join("\n");
    const options = { budgetTokens: 400, maxViewBytes: 50_000, counter, resultId: RESULT_ID, view: "" };
    const view = projectCommand(
      { text, lines: splitLines(text), toolName: "bash", args: { command: "run" }, isError: false, exitCode: 1, timedOut: false, durationMs: 5 },
      options,
    );
    const notices = view.text.split("\n").filter((line) => /^\[loupe\] lines? \d/.test(line));
    assert.ok(notices.length >= 3, `several gaps:\n${view.text}`);
    assert.match(notices[0] ?? "", /"result_id":"r_FfpXFlK5jRggbEzbCZVezol_ccUKdQ-d"/);
    for (const notice of notices.slice(1))
      assert.match(notice, /^\[loupe\] lines? [\d,–]+ omitted; recover as above with \{"start_line":\d+,"end_line":\d+\}$/);
    for (const omission of view.omissions)
      assert.match(omission.continuationJson, /^\{"result_id":"r_FfpXFlK5jRggbEzbCZVezol_ccUKdQ-d","start_line":\d+,"end_line":\d+\}$/);
  });
});
