import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { classifyLines } from "./classify-lines.js";
import { findErrorBlocks } from "./find-error-blocks.js";

function blocksOf(text: string): ReturnType<typeof findErrorBlocks> {
  const lines = splitLines(text);
  return findErrorBlocks(classifyLines(lines), lines);
}

describe("findErrorBlocks()", () => {
  it("makes each frame of a trace a unit of its own, with its source or place (Python, JVM, Go, Rust)", () => {
    const python = [
      "Traceback (most recent call last):",
      '  File "/app/a.py", line 3, in <module>',
      "    main()",
      '  File "/app/a.py", line 2, in main',
      "    raise ValueError('x')",
      "ValueError: x",
    ].join("\n");
    const jvm = ['Exception in thread "main" java.lang.IllegalStateException: x', "\tat com.acme.A.b(A.java:3)", "\tat com.acme.A.main(A.java:9)"].join("\n");
    const go = ["panic: boom", "", "goroutine 1 [running]:", "main.b(...)", "\t/app/main.go:3", "main.main()", "\t/app/main.go:9 +0x1d"].join("\n");
    const rust = [
      "thread 'main' panicked at src/main.rs:1:41:",
      "boom",
      "stack backtrace:",
      "   3: app::b",
      "             at ./src/main.rs:1:41",
      "   4: app::main",
      "             at ./src/main.rs:2:9",
    ].join("\n");
    // Each: one block; its frames' units start at the frames' first lines.
    for (const [text, frameStarts] of [
      [python, [1, 3]],
      [jvm, [1, 2]],
      [go, [3, 5]],
      [rust, [3, 5]],
    ] as const) {
      const blocks = blocksOf(text);
      assert.equal(blocks.length, 1, text);
      const starts = (blocks[0]?.segments ?? []).map((segment) => segment.start);
      for (const start of frameStarts) assert.ok(starts.includes(start), `a unit starts at line ${String(start)} of:\n${text}\n(${starts.join(", ")})`);
      // A frame's place (Go's, Rust's) stays in its frame's unit.
      for (const start of frameStarts)
        assert.ok(!starts.includes(start + 1) || text === python || text === jvm, `line ${String(start + 1)} stays with its frame:\n${text}`);
    }
  });
});
