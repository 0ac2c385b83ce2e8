import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CORPUS_FILES, hasCorpus, readTrajectories, turnsOfTrajectory } from "../testing/corpus-turns.js";
import type { CorpusCall } from "../testing/corpus-turns.js";
import type { NoteRecord } from "../summarizer.js";
import type { Turn } from "../turn.js";
import type { ExtractiveState } from "./extractive-state.js";
import { createExtractiveSummarizer } from "./extractive-summarizer.js";

// Notes built from real trajectories (../shared/corpus beside the repository; skipped when absent).
const MAX_NOTE_TOKENS = 1000;
const BATCH_TURNS = 5;
const RECENT_TURNS = 10;

async function noteOf(turns: Turn[]): Promise<NoteRecord> {
  const summarizer = createExtractiveSummarizer();
  let previous: NoteRecord | undefined;
  for (let start = 0; start < turns.length; start += BATCH_TURNS) {
    const batch = turns.slice(start, start + BATCH_TURNS);
    const draft = await summarizer.summarize({ systemPrompt: "", toolsJson: "", previous, coveredTurns: [], newTurns: batch, maxNoteTokens: MAX_NOTE_TOKENS });
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

const squash = (text: string): string => text.replace(/\s+/g, " ").trim();

// A grep that matched nothing exits 1 without output: no match, not a failure.
function isFailedCall(call: CorpusCall): boolean {
  if (call.is_error === true) return true;
  if (call.exit_code === null || call.exit_code === 0) return false;
  return !(call.exit_code === 1 && call.output.trim() === "" && /\bgrep\b/.test(JSON.stringify(call.args)));
}

/** Checks one trajectory's note against the trajectory itself; returns what it found for the totals. */
async function checkTrajectory(calls: CorpusCall[]): Promise<{ errors: number; failedCalls: number; olderFacts: boolean }> {
  const turns = turnsOfTrajectory(calls);
  const note = await noteOf(turns);
  const state = JSON.parse(note.state) as ExtractiveState;
  const id = calls[0]?.trajectory_id ?? "";
  assert.ok(note.text.length <= MAX_NOTE_TOKENS * 4, id);
  assert.ok(note.state.length < 32_000, id);
  // The task anchor from turn 1, whatever the number of turns.
  const taskStart = squash(calls[0]?.task ?? "").slice(0, 40);
  assert.ok(squash(note.text.replace(/^> ?/gm, "")).includes(taskStart), `${id}: objective missing`);
  // Every file the note lists is named by the trajectory's calls.
  const callText = calls.map((call) => (typeof call.args === "string" ? call.args : JSON.stringify(call.args))).join("\n");
  for (const file of state.files) assert.ok(callText.includes(file.path), `${id}: ${file.path} not in the trajectory`);
  // Every error line is a line of a real output.
  const outputs = squash(calls.map((call) => call.output).join("\n"));
  for (const error of state.errors) {
    if (/\(no output\)$/.test(error.line)) continue;
    assert.ok(outputs.includes(error.line.replace(/ …$/, "")), `${id}: error line not in any output: ${error.line}`);
  }
  const lastSeq = turns.length;
  const cited = [...note.text.matchAll(/turn:(\d+)/g)].map((match) => Number(match[1]));
  const olderFacts = cited.some((seq) => seq > 1 && seq <= lastSeq - RECENT_TURNS);
  const failedCalls = calls.filter(isFailedCall).length;
  return { errors: state.errors.length, failedCalls, olderFacts };
}

describe("the extractive note on real trajectories", { skip: hasCorpus() ? false : "corpus not present" }, () => {
  for (const file of CORPUS_FILES) {
    it(`cites the task, real paths and real error lines, not just the last turns (${file})`, async (t) => {
      const trajectories = [...readTrajectories(file).values()];
      let withFailures = 0;
      let withErrorsListed = 0;
      let long = 0;
      let longWithOlderFacts = 0;
      for (const calls of trajectories) {
        const found = await checkTrajectory(calls);
        if (found.failedCalls > 0) withFailures++;
        if (found.failedCalls > 0 && found.errors > 0) withErrorsListed++;
        if (calls.length * 2 > RECENT_TURNS * 2) {
          long++;
          if (found.olderFacts) longWithOlderFacts++;
        }
      }
      t.diagnostic(
        `${file}: ${String(trajectories.length)} trajectories; errors listed in ${String(withErrorsListed)}/${String(withFailures)} with failed calls; facts older than the last ${String(RECENT_TURNS)} turns in ${String(longWithOlderFacts)}/${String(long)} long ones`,
      );
      assert.equal(withErrorsListed, withFailures);
      assert.ok(longWithOlderFacts >= long * 0.9, `${String(longWithOlderFacts)}/${String(long)}`);
    });
  }
});
