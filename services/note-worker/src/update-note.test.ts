import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createExtractiveSummarizer, type Turn } from "@loupe/conversation";
import { createSourceRules } from "@loupe/rules";
import { createLogger } from "@loupe/runtime";
import { createSessionStore } from "@loupe/session-store";
import { createMemoryStateStore, type StateStore } from "@loupe/state-store";
import type { TurnReader } from "./turn-reader.js";
import { updateNote } from "./update-note.js";

const turnsOf = (count: number): Turn[] =>
  Array.from({ length: count }, (_, index) => ({
    seq: index + 1,
    role: index % 2 === 0 ? "user" : "assistant",
    parts: [{ type: "text", text: `step ${String(index + 1)}: looked at src/file${String(index % 5)}.ts` }],
    toolCalls: [],
    toolResults: [],
    tokenCount: 50,
  }));

/** The state store with every operation counted. */
function counted(state: StateStore): { state: StateStore; operations: () => number } {
  let operations = 0;
  const proxy = new Proxy(state, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        operations += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { state: proxy, operations: () => operations };
}

describe("updateNote()", () => {
  it("reads the turn log once for a run that writes ten notes, and the session's state a bounded number of times", async () => {
    const turns = turnsOf(40);
    const { state, operations } = counted(createMemoryStateStore());
    const sessions = createSessionStore(state);
    // 40 turns of 50 tokens, a note every 200 uncovered tokens (20% of 1,000): ten notes in one run.
    await sessions.updateMeta("local", "s1", () => ({ source: "app", contextWindowTokens: 1000, systemHash: "", toolsHash: "", prefixTokens: 0, lastSeq: 40 }));
    let logReads = 0;
    const reader: TurnReader = {
      read: (_tenant, _session, range) => {
        logReads += 1;
        return Promise.resolve({ turns: turns.filter((turn) => turn.seq >= range.startSeq), systemPrompt: "", toolsJson: "" });
      },
      close: () => undefined,
    };
    const before = operations();
    const outcome = await updateNote(
      {
        sessions,
        rules: createSourceRules(state),
        turns: reader,
        summarizerFor: () => createExtractiveSummarizer(),
        countNoteTokens: (text) => Math.ceil(text.length / 4),
        workerId: "w1",
        leaseMs: 30_000,
        maxNoteTokens: 256,
        logger: createLogger({ service: "note-worker", level: "error", write: () => undefined }),
      },
      "local",
      { sessionId: "s1", source: "app", seq: 40, tokenCount: 50 },
      { onProgress: () => undefined, lastAttempt: false },
    );
    assert.deepEqual(outcome, { kind: "updated", updates: 10 });
    assert.equal((await sessions.getNote("local", "s1"))?.coveredThroughSeq, 40);
    assert.equal(logReads, 1);
    // Per note: the lease renewed and the note's compare-and-set (3 state operations); per run: progress,
    // lease, meta, note, rule, progress again, pending (about 11). Before: 80 for this run, and 11 log reads.
    const used = operations() - before;
    assert.ok(used <= 42, `${String(used)} state operations`);
  });
});
