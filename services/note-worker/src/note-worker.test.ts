import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createExtractiveSummarizer, type NoteRecord, type Turn } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import { createMemoryBus, encodeEnvelope, publishTurnEvents, type Bus, type BusMessage } from "@loupe/events";
import { createLogger } from "@loupe/runtime";
import { createSessionStore } from "@loupe/session-store";
import { createMemoryStateStore, type StateStore } from "@loupe/state-store";
import { loadConfig } from "./config.js";
import { DEAD_LETTER_STREAM } from "./dead-letter.js";
import type { EventOutcome } from "./handle-event.js";
import { noteWorkerSummarizers } from "./run.js";
import { startNoteWorker, type NoteWorkerHandle } from "./start.js";
import type { TurnReader } from "./turn-reader.js";
import { nextCut } from "./update-note.js";

const WINDOW = 1000; // the note updates every 200 uncovered tokens (20%)
const turnsOf = (count: number): Turn[] =>
  Array.from({ length: count }, (_, index) => ({
    seq: index + 1,
    role: index % 2 === 0 ? "user" : "assistant",
    parts: [
      {
        type: "text",
        text: index === 0 ? "Fix the flaky upload test in src/upload.ts" : `step ${String(index + 1)}: looked at src/file${String(index % 5)}.ts`,
      },
    ],
    toolCalls: [],
    toolResults: [],
    tokenCount: 37 + ((index * 13) % 50),
  }));

/** The turn log as the archive would serve it; `failures` makes the next reads fail. */
function logReader(turns: Turn[], failures: { count: number; code: "unavailable" | "internal" }): TurnReader {
  return {
    read: async (_tenant, _session, range) => {
      if (failures.count > 0) {
        failures.count -= 1;
        throw new AppError(failures.code, "archive says no");
      }
      return { turns: turns.filter((turn) => turn.seq >= range.startSeq && (range.endSeq === 0 || turn.seq <= range.endSeq)), systemPrompt: "", toolsJson: "" };
    },
    close: () => undefined,
  };
}

/** The notes an uninterrupted, one-turn-at-a-time run writes: same cut points, same summarizer. */
async function referenceNote(turns: Turn[]): Promise<NoteRecord | undefined> {
  const summarizer = createExtractiveSummarizer();
  let note: NoteRecord | undefined;
  for (;;) {
    const covered = note?.coveredThroughSeq ?? 0;
    const rest = turns.filter((turn) => turn.seq > covered);
    const cut = nextCut(rest, WINDOW * 0.2);
    if (cut === undefined) return note;
    const draft = await summarizer.summarize({
      systemPrompt: "",
      toolsJson: "",
      previous: note,
      coveredTurns: [],
      newTurns: rest.slice(0, cut + 1),
      maxNoteTokens: 256,
    });
    note = { text: draft.text, state: draft.state, coveredThroughSeq: rest[cut]?.seq ?? covered, version: (note?.version ?? 0) + 1, author: "extractive" };
  }
}

async function until(probe: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("note-worker", () => {
  let bus: Bus;
  let state: StateStore;
  let worker: NoteWorkerHandle | undefined;
  const outcomes: EventOutcome[] = [];
  const logged: string[] = [];

  beforeEach(async () => {
    bus = await createMemoryBus();
    state = createMemoryStateStore();
    outcomes.length = 0;
    logged.length = 0;
  });
  afterEach(async () => {
    await worker?.stop();
    await bus.close();
    await state.close();
  });

  const start = async (turns: Turn[], failures = { count: 0, code: "unavailable" as "unavailable" | "internal" }, env: Record<string, string> = {}) => {
    const sessions = createSessionStore(state);
    await sessions.updateMeta("local", "s1", () => ({
      source: "app",
      contextWindowTokens: WINDOW,
      systemHash: "",
      toolsHash: "",
      prefixTokens: 0,
      lastSeq: turns.length,
    }));
    const config = { ...loadConfig({ LOUPE_NOTE_MAX_TOKENS: "256", LOUPE_NOTE_WORKER_MAX_DELIVER: "3", ...env }), workerId: "w1" };
    worker = await startNoteWorker(config, {
      summarizerFor: noteWorkerSummarizers(config, {}),
      logger: createLogger({ service: "note-worker", level: "debug", write: (line) => logged.push(line) }),
      bus,
      state,
      turns: logReader(turns, failures),
      endpoints: false,
      onEvent: (_subject, outcome) => outcomes.push(outcome),
    });
    return sessions;
  };
  const publish = (seqs: number[], turns: Turn[]) =>
    publishTurnEvents(
      bus,
      "local",
      seqs.map((seq) => ({ sessionId: "s1", source: "app", seq, tokenCount: turns[seq - 1]?.tokenCount ?? 0 })),
      new Date(),
    );

  it("folds each turn into the note once, in order, whatever order and how often the events come", async () => {
    const turns = turnsOf(30);
    const sessions = await start(turns);
    // Every event newest first, then each again as a republish after the stream's dedupe window would
    // (same envelope, no msgId): reordering and repeats must not matter.
    const seqs = turns.map((turn) => turn.seq).reverse();
    await publish(seqs, turns);
    for (const seq of seqs) {
      const data = { sessionId: "s1", source: "app", seq, tokenCount: turns[seq - 1]?.tokenCount ?? 0 };
      await bus.publish(
        "loupe.turn.appended.local.s1",
        encodeEnvelope({ type: "turn.appended", id: `again-${String(seq)}`, tenant: "local", time: new Date().toISOString(), data }),
      );
    }
    const expected = await referenceNote(turns);
    assert.ok(expected && expected.version >= 3);
    await until(async () => (await sessions.getNote("local", "s1"))?.coveredThroughSeq === expected.coveredThroughSeq);
    await until(() => outcomes.length >= 60);
    const note = await sessions.getNote("local", "s1");
    assert.equal(note?.version, expected.version, "one update per cut point: none repeated");
    assert.equal(note?.text, expected.text);
    assert.equal(note?.state, expected.state);
  });

  it("retries a briefly unavailable archive with a backoff, then writes the note", async () => {
    const turns = turnsOf(8);
    const sessions = await start(turns, { count: 1, code: "unavailable" });
    await publish([8], turns);
    await until(async () => (await sessions.getNote("local", "s1")) !== undefined);
    assert.deepEqual(outcomes, ["retried", "acked"]);
  });

  it("takes over a session whose lease holder died mid-run: the deferred event comes back once the lease lapses", async () => {
    const turns = turnsOf(8);
    const sessions = await start(turns, undefined, { LOUPE_NOTE_LEASE_MS: "1000" });
    // A replica killed while it held the session: nobody releases the lease or runs once more.
    assert.equal(await sessions.acquireLease("local", "s1", "killed-replica/1", 1000), true);
    await publish([8], turns);
    await until(async () => (await sessions.getNote("local", "s1")) !== undefined);
    assert.deepEqual(outcomes, ["deferred", "acked"]);
  });

  it("dead-letters an event that fails for good, with the reason, and never retries it", async () => {
    const turns = turnsOf(8);
    await start(turns, { count: 100, code: "internal" });
    await publish([8], turns);
    await bus.publish(
      "loupe.turn.appended.local.s2",
      encodeEnvelope({ type: "turn.appended", id: "x", tenant: "local", time: new Date().toISOString(), data: { sessionId: "s2" } }),
    );
    const dead: BusMessage[] = [];
    const subscription = await bus.consume(DEAD_LETTER_STREAM, {
      durable: "dlq-reader",
      filterSubject: "loupe_dead.>",
      handler: async (message) => {
        dead.push(message);
        message.ack();
      },
    });
    await until(() => dead.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await subscription.stop();
    assert.equal(dead.length, 2);
    const reasons = dead.map((message) => message.headers["Loupe-Dead-Reason"] ?? "").sort();
    assert.match(reasons[0] ?? "", /^internal: archive says no/);
    assert.match(reasons[1] ?? "", /turn event with a bad seq|without source/);
    assert.deepEqual(outcomes.sort(), ["dead-lettered", "dead-lettered"]);
  });
});
