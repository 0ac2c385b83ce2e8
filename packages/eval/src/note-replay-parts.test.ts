import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CorpusRow, Trajectory } from "./corpus-row.js";
import { citedSeqs } from "./note-context.js";
import { carriedEvidence } from "./note-evidence.js";
import { callSeq, replaySteps, resultSeq } from "./note-turns.js";
import { fixtureRow } from "./testing/fixture-rows.js";

function row(step: number, output: string, nextAction: string, command = `step ${String(step)}`): CorpusRow {
  return fixtureRow(step, output, nextAction, { task: "fix parse_header", args: { command }, exitCode: step === 2 ? 1 : 0 });
}

const trajectory: Trajectory = {
  agentSystem: "fixture",
  id: "t1",
  rows: [
    row(1, "src/reader.py\nsrc/writer.py\n", "Open the reader.\n[bash] cat src/reader.py"),
    row(
      2,
      "def load_block(stream):\n    raise BufferTooSmall('block_size')\n",
      "load_block raises BufferTooSmall.\n[bash] grep -rn block_size src",
      "cat src/reader.py",
    ),
    row(3, "src/writer.py:9: block_size = 4\n", "Now check the tests.\n[bash] ls tests"),
    row(
      4,
      "test_reader.py: BufferTooSmall\n",
      "Back to load_block in src/reader.py; parse_header too; BufferTooSmall again.\n[bash] sed -n 1,5p src/reader.py",
    ),
    row(5, "def load_block(stream):\n", "Done: fix_block_size."),
  ],
};

describe("replaySteps()", () => {
  it("turns a trajectory into the task, then one call and one result per row, seqs without gaps", () => {
    const steps = replaySteps(trajectory);
    const turns = steps.flatMap((step) => step.turns);
    assert.deepEqual(
      turns.map((turn) => turn.seq),
      Array.from({ length: 1 + 2 * trajectory.rows.length }, (_, index) => index + 1),
    );
    assert.equal(turns[0]?.role, "user");
    assert.deepEqual([callSeq(1), resultSeq(1)], [4, 5]);
    const second = steps[1]!;
    assert.equal(second.turns[0]?.role, "assistant");
    // The call's turn carries the thought that led to it: the previous row's next action.
    assert.deepEqual(second.turns[0]?.parts, [{ content: { case: "text", value: trajectory.rows[0]!.nextAction } }]);
    assert.deepEqual(second.turns[0]?.toolCalls, [{ toolUseId: "call-2", name: "bash", argsJson: JSON.stringify({ command: "cat src/reader.py" }) }]);
    const result = second.turns[1]?.toolResults?.[0];
    assert.equal(result?.toolUseId, "call-2");
    assert.equal(result?.exitCode, 1);
    assert.deepEqual(result?.parts, [{ content: { case: "text", value: trajectory.rows[1]!.output } }]);
    assert.deepEqual(
      steps[1]?.turnTexts,
      [
        { seq: 4, text: `${trajectory.rows[0]!.nextAction}\n${JSON.stringify({ command: "cat src/reader.py" })}` },
        { seq: 5, text: trajectory.rows[1]!.output },
      ],
      "each turn's text once: the call turn has the thought and the arguments as sent",
    );
    assert.deepEqual(steps[0]?.turnTexts[0], { seq: 1, text: "fix parse_header" }, "the first step starts with the task");
  });
});

describe("carriedEvidence()", () => {
  it("keeps what the actions after the compaction use from before it, once, at first use", () => {
    // Compaction after row 2 (index 2): the actions of rows 2, 3 and 4 come after it.
    const items = carriedEvidence(trajectory, 2, 5);
    assert.deepEqual(
      items.map((item) => [item.text, item.usedAtRow]),
      [
        ["src/reader.py", 3],
        ["load_block", 3],
      ],
      JSON.stringify(items),
    );
  });

  it("leaves out what the task names, what came again since, and what an action says first", () => {
    const items = carriedEvidence(trajectory, 2, 5).map((item) => item.text);
    assert.ok(!items.includes("BufferTooSmall"), "row 3's output shows it again before row 3's action uses it");
    assert.ok(!items.includes("parse_header"), "in the task");
    assert.ok(!items.includes("fix_block_size"), "never seen before the compaction");
    assert.ok(!items.includes("reader.py"), "inside a longer item");
    assert.deepEqual(
      carriedEvidence(trajectory, 2, 3).map((item) => item.text),
      [],
      "only the actions before untilRow count",
    );
  });
});

describe("citedSeqs()", () => {
  it("lists the distinct turn addresses a note cites, by seq", () => {
    assert.deepEqual(citedSeqs("- ran tests (turn:12, turn:3)\n- error at turn:12; see turn:7x and turn:40"), [3, 12, 40]);
  });
});
