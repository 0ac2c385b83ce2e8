import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { assistantTurn, call, fixLoopTurns, result, resultTurn, userTurn } from "../testing/turn-builders.js";
import type { NoteRecord, NoteUpdateInput } from "../summarizer.js";
import type { Turn } from "../turn.js";
import { createExtractiveSummarizer } from "./extractive-summarizer.js";

const TASK = "Fix the failing add() test in src/math.ts without changing its signature.";

function input(newTurns: Turn[], previous?: NoteRecord, maxNoteTokens = 1000): NoteUpdateInput {
  return { systemPrompt: "", toolsJson: "", previous, coveredTurns: [], newTurns, maxNoteTokens };
}

/** Folds `turns` through the summarizer in batches of `size`, as the note-worker would. */
async function summarizeInBatches(turns: Turn[], size: number, maxNoteTokens = 1000): Promise<NoteRecord> {
  const summarizer = createExtractiveSummarizer();
  let previous: NoteRecord | undefined;
  for (let start = 0; start < turns.length; start += size) {
    const batch = turns.slice(start, start + size);
    const draft = await summarizer.summarize(input(batch, previous, maxNoteTokens));
    previous = {
      text: draft.text,
      state: draft.state,
      coveredThroughSeq: batch[batch.length - 1]?.seq ?? 0,
      version: (previous?.version ?? 0) + 1,
      author: "extractive",
    };
  }
  assert.ok(previous !== undefined);
  return previous;
}

/** A long session: the task, then fix loops and filler exploration until `count` turns. */
function longSession(count: number): Turn[] {
  const turns: Turn[] = [userTurn(1, TASK)];
  while (turns.length < count) {
    const seq = turns.length + 1;
    if (seq % 40 === 2) {
      turns.push(...fixLoopTurns(seq));
      continue;
    }
    const id = `ls-${String(seq)}`;
    turns.push(assistantTurn(seq, `Let me inspect module ${String(seq)} next.`, [call(id, "Bash", { command: `cat src/module-${String(seq)}.ts` })]));
    turns.push(resultTurn(seq + 1, [result(id, "Bash", `export const value${String(seq)} = ${String(seq)};\n`, { exitCode: 0 })]));
  }
  return turns.slice(0, count);
}

function isInvalidArgument(error: unknown): boolean {
  return isAppError(error) && error.code === "invalid_argument";
}

describe("createExtractiveSummarizer()", () => {
  it("is named extractive", () => {
    assert.equal(createExtractiveSummarizer().name, "extractive");
  });

  it("lists a failing npm test as resolved after the edit and the passing run, and the file as edited", async () => {
    const draft = await createExtractiveSummarizer().summarize(input([userTurn(1, TASK), ...fixLoopTurns(2)], undefined, 600));
    assert.match(draft.text, /## Errors met\n- Bash `npm test`: not ok 1 - add\(\) sums two numbers \(turn:3\) — resolved \(turn:7\)/);
    assert.match(draft.text, /- \/repo\/src\/math\.ts — read \(turn:4\); edited \(turn:4\)/);
    assert.match(draft.text, /## Next steps\n- Next I need to update the changelog\. \(turn:8\)/);
    assert.ok(draft.text.length <= 600 * 4);
  });

  it("keeps the objective from turn 1 after 200 turns folded in batches", async () => {
    const note = await summarizeInBatches(longSession(200), 9, 400);
    assert.ok(note.text.includes(`From turn:1:\n> ${TASK}`), note.text);
    assert.ok(note.text.length <= 1600);
    assert.ok(note.text.startsWith("# Handover note (through turn:200)"));
  });

  it("keeps its state bounded after 2,000 turns", async () => {
    const note = await summarizeInBatches(longSession(2000), 50);
    assert.ok(note.state.length < 32_000, `state is ${String(note.state.length)} characters`);
    assert.ok(note.text.length <= 4000);
    assert.ok(note.text.includes(TASK));
  });

  it("gives the same note and state whatever the batch sizes", async () => {
    const turns = longSession(120);
    const reference = await summarizeInBatches(turns, turns.length);
    for (const size of [1, 7, 33]) {
      const batched = await summarizeInBatches(turns, size);
      assert.equal(batched.text, reference.text);
      assert.equal(batched.state, reference.state);
    }
  });

  it("fits the token budget of a given counter", async () => {
    // About 1 token per 2 characters: denser than the 4-character estimate, so the note must shrink.
    const countTokens = (text: string): number => Math.ceil(text.length / 2);
    const summarizer = createExtractiveSummarizer({ countTokens });
    const draft = await summarizer.summarize(input(longSession(300), undefined, 500));
    assert.ok(countTokens(draft.text) <= 500, `${String(countTokens(draft.text))} tokens`);
    assert.ok(draft.text.includes(TASK));
  });

  it("folds new turns only, never the covered turns", async () => {
    const summarizer = createExtractiveSummarizer();
    const first = await summarizer.summarize(input([userTurn(1, TASK)]));
    const previous: NoteRecord = { text: first.text, state: first.state, coveredThroughSeq: 1, version: 1, author: "extractive" };
    const draft = await summarizer.summarize({
      ...input([assistantTurn(2, "The root cause is an off-by-one in the loop.")], previous),
      coveredTurns: [userTurn(1, "A covered turn the state already holds")],
    });
    assert.ok(!draft.text.includes("A covered turn"));
    assert.ok(draft.text.includes("The root cause is an off-by-one in the loop. (turn:2)"));
  });

  it("carries the start of a note written by another author", async () => {
    const previous: NoteRecord = { text: "# My own note\nGoal: migrate the billing service.", state: "", coveredThroughSeq: 40, version: 3, author: "model" };
    const draft = await createExtractiveSummarizer().summarize(input([assistantTurn(41, "I'll switch to the v2 queue client.")], previous));
    assert.ok(draft.text.includes("From the previous note (through turn:40):\n> # My own note\n> Goal: migrate the billing service."), draft.text);
    assert.ok(draft.text.startsWith("# Handover note (through turn:41)"));
  });

  it("cites the saved result of each call its turns answer, by result id, and keeps citing it in later updates", async () => {
    const turns = [
      userTurn(1, TASK),
      assistantTurn(2, "Running the tests.", [call("toolu_test", "Bash", { command: "npm test" })]),
      resultTurn(3, [result("toolu_test", "Bash", "[loupe] 4,800 lines omitted …\nFAIL src/math.test.ts", { exitCode: 1, isError: true })]),
      assistantTurn(4, "Reading the file.", [call("toolu_read", "Read", { file_path: "src/math.ts" })]),
      resultTurn(5, [result("toolu_read", "Read", "export function add(a, b) {")]),
    ];
    const savedResults = [
      { toolUseId: "toolu_test", resultId: "r_testlog", toolName: "Bash", kind: "command", path: "", originalTokens: 48_000 },
      { toolUseId: "toolu_read", resultId: "r_mathfile", toolName: "Read", kind: "file_read", path: "src/math.ts", originalTokens: 1200 },
      { toolUseId: "toolu_other", resultId: "r_unrelated", toolName: "Bash", kind: "command", path: "", originalTokens: 10 },
    ];
    const summarizer = createExtractiveSummarizer();
    const first = await summarizer.summarize({ ...input(turns.slice(0, 3)), savedResults });
    const files = (text: string) => text.slice(text.indexOf("## Files touched and saved results"), text.indexOf("## Names in play"));
    assert.match(files(first.text), /- Saved output of Bash \(turn:3\): result r_testlog \(command, 48000 tokens; read it whole with read_result\)/);
    assert.doesNotMatch(first.text, /r_mathfile|r_unrelated/, "only calls the new turns answer");
    const previous = { text: first.text, state: first.state, coveredThroughSeq: 3, version: 1, author: "extractive" };
    const second = await summarizer.summarize({ ...input(turns.slice(3), previous), savedResults });
    assert.match(files(second.text), /result r_testlog/);
    assert.match(files(second.text), /- Saved output of Read src\/math\.ts \(turn:5\): result r_mathfile \(file_read, 1200 tokens/);
    const without = await createExtractiveSummarizer().summarize(input(turns.slice(0, 3)));
    assert.doesNotMatch(without.text, /Saved output/, "no events, no citations");
  });

  it("rejects empty or non-contiguous new turns, a bad budget and a state it cannot read", async () => {
    const summarizer = createExtractiveSummarizer();
    const previous: NoteRecord = { text: "", state: "", coveredThroughSeq: 5, version: 1, author: "extractive" };
    await assert.rejects(summarizer.summarize(input([])), isInvalidArgument);
    await assert.rejects(summarizer.summarize(input([userTurn(2, TASK)])), isInvalidArgument);
    await assert.rejects(summarizer.summarize(input([userTurn(7, TASK)], previous)), isInvalidArgument);
    await assert.rejects(summarizer.summarize(input([userTurn(6, TASK), userTurn(8, TASK)], previous)), isInvalidArgument);
    await assert.rejects(summarizer.summarize(input([userTurn(1, TASK)], undefined, 0)), isInvalidArgument);
    await assert.rejects(summarizer.summarize(input([userTurn(6, TASK)], { ...previous, state: "{not json" })), isInvalidArgument);
    await assert.rejects(summarizer.summarize(input([userTurn(6, TASK)], { ...previous, state: '{"v":2}' })), isInvalidArgument);
  });
});
