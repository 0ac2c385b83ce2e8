import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { NoteRecord } from "@loupe/conversation";
import { createMemoryStateStore, stateKey, type StateStore } from "@loupe/state-store";
import { createRedisStateStore } from "@loupe/state-store/redis";
import { createSessionStore } from "./session-store.js";

const note = (version: number, coveredThroughSeq: number): NoteRecord => ({
  text: `note ${String(version)}`,
  coveredThroughSeq,
  version,
  state: "",
  author: "extractive",
});

function describeSessionStore(name: string, open: () => Promise<StateStore>) {
  describe(`session store over ${name}`, () => {
    const fresh = async () => {
      const state = await open();
      return { state, sessions: createSessionStore(state), session: `s-${String(process.hrtime.bigint())}` };
    };

    it("updates a note only from the version it read (one of two racing writers wins)", async () => {
      const { state, sessions, session } = await fresh();
      assert.equal(await sessions.getNote("t", session), undefined);
      assert.equal(await sessions.putNote("t", session, 0, note(1, 5)), true);
      const race = await Promise.all([sessions.putNote("t", session, 1, note(2, 9)), sessions.putNote("t", session, 1, note(2, 11))]);
      assert.deepEqual(race.filter(Boolean).length, 1);
      assert.equal(await sessions.putNote("t", session, 1, note(2, 12)), false);
      assert.equal((await sessions.getNote("t", session))?.version, 2);
      await state.close();
    });

    it("reads progress stored by an earlier version (with an uncoveredTokens count) by its seq, and advances from it", async () => {
      const { state, sessions, session } = await fresh();
      await state.compareAndSet(stateKey("t", "session", session, "progress"), undefined, JSON.stringify({ seenThroughSeq: 7, uncoveredTokens: 0 }));
      const stored = await sessions.getProgress("t", session);
      assert.deepEqual(stored, { seenThroughSeq: 7 });
      assert.equal(await sessions.compareAndSetProgress("t", session, stored, { seenThroughSeq: 9 }), true);
      assert.deepEqual(await sessions.getProgress("t", session), { seenThroughSeq: 9 });
      await state.close();
    });

    it("hands a released lease over at once (the holder re-runs for a pending mark right after releasing)", async () => {
      const { state, sessions, session } = await fresh();
      assert.equal(await sessions.acquireLease("t", session, "w1", 10_000), true);
      await sessions.releaseLease("t", session, "w1");
      assert.equal(await sessions.acquireLease("t", session, "w1", 10_000), true, "the same owner, right away");
      await sessions.releaseLease("t", session, "w1");
      assert.equal(await sessions.acquireLease("t", session, "w2", 10_000), true, "another owner, right away");
      assert.equal(await sessions.acquireLease("t", session, "w1", 10_000), false, "held again");
      await state.close();
    });

    it("advances progress by compare-and-set and holds a lease for one owner at a time", async () => {
      const { state, sessions, session } = await fresh();
      const start = await sessions.getProgress("t", session);
      assert.deepEqual(start, { seenThroughSeq: 0 });
      assert.equal(await sessions.compareAndSetProgress("t", session, start, { seenThroughSeq: 3 }), true);
      assert.equal(await sessions.compareAndSetProgress("t", session, start, { seenThroughSeq: 4 }), false);
      assert.deepEqual(await sessions.getProgress("t", session), { seenThroughSeq: 3 });
      assert.equal(await sessions.acquireLease("t", session, "w1", 10_000), true);
      assert.equal(await sessions.acquireLease("t", session, "w2", 10_000), false);
      assert.equal(await sessions.acquireLease("t", session, "w1", 10_000), true);
      await sessions.releaseLease("t", session, "w2");
      assert.equal(await sessions.acquireLease("t", session, "w2", 10_000), false);
      await sessions.releaseLease("t", session, "w1");
      await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(await sessions.acquireLease("t", session, "w2", 10_000), true);
      assert.equal(await sessions.renewLease("t", session, "w2", 10_000), true, "the holder renews");
      assert.equal(await sessions.renewLease("t", session, "w1", 10_000), false, "another owner cannot");
      await sessions.releaseLease("t", session, "w2");
      assert.equal(await sessions.renewLease("t", session, "w2", 10_000), false, "a released lease is not renewed");
      assert.equal(await sessions.acquireLease("t", session, "w2", 10_000), true);
      assert.equal(await sessions.takePending("t", session), false);
      await Promise.all([sessions.markPending("t", session), sessions.markPending("t", session)]);
      assert.deepEqual(
        await Promise.all([sessions.takePending("t", session), sessions.takePending("t", session)]).then((taken) => taken.filter(Boolean).length),
        1,
      );
      assert.equal(await sessions.takePending("t", session), false);
      await state.close();
    });

    it("keeps meta and the token tally, and releases every key of one session only", async () => {
      const { state, sessions, session } = await fresh();
      const meta = { source: "app", contextWindowTokens: 1000, systemHash: "", toolsHash: "", prefixTokens: 10, lastSeq: 2 };
      await sessions.updateMeta("t", session, () => meta);
      await sessions.updateMeta("t", session, (current) => ({ ...meta, lastSeq: Math.max(current?.lastSeq ?? 0, 5) }));
      assert.equal((await sessions.getMeta("t", session))?.lastSeq, 5);
      assert.equal(await sessions.addTurnTokens("t", session, 40), 40);
      assert.equal(await sessions.addTurnTokens("t", session, 2), 42);
      await sessions.setBase("t", session, { seq: 2, turnTokens: 30, noteTokens: 7 });
      await sessions.putNote("t", session, 0, note(1, 2));
      await sessions.putNote("t", `${session}-other`, 0, note(1, 2));
      assert.ok((await sessions.release("t", session)) >= 4);
      assert.equal(await sessions.getMeta("t", session), undefined);
      assert.equal(await sessions.getNote("t", session), undefined);
      assert.equal(await sessions.getBase("t", session), undefined);
      assert.equal((await sessions.getNote("t", `${session}-other`))?.version, 1);
      await state.close();
    });
  });
}

describeSessionStore("memory", async () => createMemoryStateStore());
describeSessionStore("redis", async () => createRedisStateStore({ url: process.env["LOUPE_REDIS_URL"] ?? "redis://127.0.0.1:6379" }));
