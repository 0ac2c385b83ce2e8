import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { createTokenCounter } from "../token-counter.js";
import { findTurns } from "./find-turns.js";
import { projectConversation } from "./project-conversation.js";

const counter = createTokenCounter();

function transcript(turns: number): string {
  const lines = ["user: Fix the flaky test in tests/test_cache.py (task anchor)\n", "It fails one run in ten.\n"];
  for (let turn = 2; turn <= turns; turn++) {
    const role = turn % 2 === 0 ? "assistant" : "user";
    lines.push(
      `${role}: message ${String(turn)}\n`,
      ...Array.from({ length: 8 }, (_, index) => `  detail ${String(turn)}.${String(index)} lorem ipsum dolor sit amet\n`),
    );
  }
  return lines.join("");
}

describe("projectConversation()", () => {
  it("finds turns by their role markers", () => {
    const turns = findTurns(splitLines("## User\nhi\n[assistant] hello\nok\n<tool>\nout\n"));
    assert.deepEqual(
      turns.map((turn) => [turn.role, turn.start, turn.end]),
      [
        ["user", 0, 2],
        ["assistant", 2, 4],
        ["tool", 4, 6],
      ],
    );
  });

  it("keeps the task anchor and the most recent turns, and names the omitted turns", () => {
    const text = transcript(120);
    const options = { budgetTokens: 800, maxViewBytes: 50_000, counter, resultId: "r_c", view: "" };
    const input = {
      text,
      lines: splitLines(text),
      toolName: "read_history",
      args: {},
      isError: false,
      exitCode: undefined,
      timedOut: false,
      durationMs: undefined,
    };
    const view = projectConversation(input, options);
    checkLineView(text, view, options);
    assert.match(view.text, /user: Fix the flaky test in tests\/test_cache\.py/);
    assert.match(view.text, /message 120\n/);
    assert.match(view.text, /^\[loupe\] 120 turns; not shown whole: turn:2 \(lines 3–11\), turn:3 \(lines 12–20\)/m);
    assert.doesNotMatch(view.text, /message 60\n/);
  });
});
