import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commandFromArgs, commandHeader, formatDuration } from "./command-header.js";

const base = { toolName: "bash", args: {}, isError: false, exitCode: undefined, timedOut: false, durationMs: undefined };

describe("commandFromArgs()", () => {
  it("reads command, cmd or script, first non-empty line, trimmed", () => {
    assert.equal(commandFromArgs({ command: "  pytest -x  " }), "pytest -x");
    assert.equal(commandFromArgs({ cmd: "make test" }), "make test");
    assert.equal(commandFromArgs({ script: "\n\ncd /repo\npython run.py\n" }), "cd /repo …");
    assert.equal(commandFromArgs({ command: ["python", "-m", "pytest"] }), "python -m pytest");
    assert.equal(commandFromArgs({ command: 3, cmd: "ls" }), "ls");
    assert.equal(commandFromArgs({}), "");
  });

  it("cuts a long command to about 200 characters without splitting a surrogate pair", () => {
    const command = commandFromArgs({ command: "echo " + "\u{1F600}".repeat(300) });
    assert.ok(command.endsWith(" …"));
    assert.equal(Array.from(command.slice(0, -2)).length, 200);
    assert.ok(!/[\uD800-\uDBFF]$/.test(command.slice(0, -2)), "no lone high surrogate at the cut");
  });

  it("replaces control characters so the header stays one line", () => {
    assert.equal(commandFromArgs({ command: "printf 'a\rb'\tx" }), "printf 'a b' x");
  });
});

describe("formatDuration()", () => {
  for (const [ms, text] of [
    [0, "0 ms"],
    [850, "850 ms"],
    [3200, "3.2 s"],
    [59_940, "59.9 s"],
    [125_000, "2 min 5 s"],
    [3_780_000, "1 h 3 min"],
  ] as const) {
    it(`formats ${String(ms)} ms as ${text}`, () => assert.equal(formatDuration(ms), text));
  }
});

describe("commandHeader()", () => {
  it("names command, exit status, timeout and duration", () => {
    assert.equal(
      commandHeader({ ...base, args: { command: "pytest -x" }, exitCode: 1, timedOut: true, durationMs: 3200 }),
      "[loupe] $ pytest -x · exit 1 (failed) · timed out · 3.2 s",
    );
    assert.equal(commandHeader({ ...base, args: { command: "ls" }, exitCode: 0 }), "[loupe] $ ls · exit 0");
  });

  it("never lets a failure read as a success", () => {
    assert.equal(commandHeader({ ...base, isError: true, exitCode: 0 }), "[loupe] bash · exit 0 · failed (is_error)");
    assert.equal(commandHeader({ ...base, isError: true }), "[loupe] bash · failed (is_error)");
    assert.equal(commandHeader({ ...base, isError: true, exitCode: 2 }), "[loupe] bash · exit 2 (failed)");
  });

  it("falls back to the tool name, kept on one line", () => {
    assert.equal(commandHeader({ ...base, toolName: "run\ntests" }), "[loupe] run tests");
    assert.equal(commandHeader({ ...base, toolName: "" }), "[loupe] command");
  });
});
