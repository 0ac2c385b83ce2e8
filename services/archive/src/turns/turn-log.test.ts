import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { createFileArchiveStore, type ArchiveStore } from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { DeleteRequestSchema, ReadTurnsRequestSchema, type StoredTurn } from "@loupe/proto";
import { deleteResults, deleteTargetFrom } from "../delete-results.js";
import { appendTurns } from "./append-turns.js";
import { readTurns } from "./read-turns.js";
import { searchTurns, turnLines } from "./search-turns.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const turn = (seq: number, text: string): StoredTurn =>
  ({ seq, turnJson: encoder.encode(JSON.stringify({ seq, role: seq % 2 === 1 ? "user" : "assistant", parts: [{ type: "text", text }] })) }) as StoredTurn;
const read = (
  store: ArchiveStore,
  tenant: string,
  fields: Partial<{ sessionId: string; startSeq: number; endSeq: number; maxBytes: number; systemHash: string; toolsHash: string }>,
) => readTurns(store, tenant, create(ReadTurnsRequestSchema, { sessionId: "s1", ...fields }));
const texts = (turns: Array<{ turnJson: Uint8Array }>) =>
  turns.map((t) => (JSON.parse(decoder.decode(t.turnJson)) as { parts: Array<{ text: string }> }).parts[0]?.text);

describe("turn log", () => {
  let dir: string;
  let store: ArchiveStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-turns-"));
    store = createFileArchiveStore({ directory: dir });
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("writes each seq once: a retry is a duplicate, other bytes are refused and the first stays", async () => {
    const first = await appendTurns(store, {
      tenant: "t1",
      sessionId: "s1",
      turns: [turn(1, "fix the build"), turn(2, "on it")],
      systemPrompt: "be brief",
      toolsJson: "[]",
    });
    assert.deepEqual(first.created, [1, 2]);
    assert.match(first.systemHash, /^sha256:[0-9a-f]{64}$/);
    const retry = await appendTurns(store, {
      tenant: "t1",
      sessionId: "s1",
      turns: [turn(2, "on it"), turn(3, "npm test failed")],
      systemPrompt: "",
      toolsJson: "",
    });
    assert.deepEqual(retry.created, [3]);
    await assert.rejects(
      appendTurns(store, { tenant: "t1", sessionId: "s1", turns: [turn(3, "something else"), turn(4, "later")], systemPrompt: "", toolsJson: "" }),
      (error) => isAppError(error) && error.code === "already_exists" && error.message.includes("seqs=3"),
    );
    const all = await read(store, "t1", { systemHash: first.systemHash, toolsHash: first.toolsHash });
    // The conflicting turn kept its first bytes; the other turn of the refused call was still accepted.
    assert.deepEqual(texts(all.turns), ["fix the build", "on it", "npm test failed", "later"]);
    assert.equal(all.lastSeq, 4);
    assert.equal(all.systemPrompt, "be brief");
    assert.equal(all.toolsJson, "[]");
  });

  it("reads ranges in seq order, stops at max_bytes with the next seq, and keeps tenants apart", async () => {
    await appendTurns(store, {
      tenant: "t1",
      sessionId: "s1",
      turns: [12, 3, 1, 2, 10].map((seq) => turn(seq, `text ${String(seq)}`)),
      systemPrompt: "",
      toolsJson: "",
    });
    assert.deepEqual(
      (await read(store, "t1", {})).turns.map((t) => t.seq),
      [1, 2, 3, 10, 12],
    );
    assert.deepEqual(
      (await read(store, "t1", { startSeq: 2, endSeq: 10 })).turns.map((t) => t.seq),
      [2, 3, 10],
    );
    const two = turn(1, "text 1").turnJson.byteLength + turn(2, "text 2").turnJson.byteLength;
    const page = await read(store, "t1", { maxBytes: two + 1 });
    assert.deepEqual(
      page.turns.map((t) => t.seq),
      [1, 2],
    );
    assert.equal(page.nextSeq, 3);
    // At least one turn, however small the bound.
    assert.equal((await read(store, "t1", { maxBytes: 1 })).turns.length, 1);
    assert.deepEqual((await read(store, "t2", {})).turns, []);
    await assert.rejects(read(store, "t1", { startSeq: 5, endSeq: 2 }), (error) => isAppError(error) && error.code === "invalid_argument");
  });

  it("searches phrases, then all words, case-insensitively, with whole-line snippets", async () => {
    await appendTurns(store, {
      tenant: "t1",
      sessionId: "s1",
      turns: [turn(1, "Please fix src/app.ts"), turn(2, "Running tests\nTypeError: x is undefined at src/app.ts:12"), turn(3, "the TypeError is fixed")],
      systemPrompt: "",
      toolsJson: "",
    });
    const phrase = await searchTurns(store, "t1", { sessionId: "s1", query: "typeerror: x", limit: 0 });
    assert.deepEqual(phrase.hits, [{ seq: 2, snippet: "TypeError: x is undefined at src/app.ts:12" }]);
    const words = await searchTurns(store, "t1", { sessionId: "s1", query: "fixed typeerror", limit: 0 });
    assert.deepEqual(
      words.hits.map((hit) => hit.seq),
      [3],
    );
    const limited = await searchTurns(store, "t1", { sessionId: "s1", query: "src/app.ts", limit: 1 });
    assert.equal(limited.matchCount, 2);
    assert.equal(limited.hits.length, 1);
    await assert.rejects(
      searchTurns(store, "t1", { sessionId: "s1", query: "  ", limit: 0 }),
      (error) => isAppError(error) && error.code === "invalid_argument",
    );
    assert.deepEqual(
      turnLines(
        JSON.stringify({
          role: "user",
          parts: [
            { type: "media", mimeType: "image/png", data: "QUJD" },
            { type: "text", text: "a\nb" },
          ],
        }),
      ),
      ["a", "b"],
    );
  });

  it("goes with its session when the session is deleted", async () => {
    await appendTurns(store, { tenant: "t1", sessionId: "s1", turns: [turn(1, "x")], systemPrompt: "sys", toolsJson: "" });
    await appendTurns(store, { tenant: "t1", sessionId: "s2", turns: [turn(1, "y")], systemPrompt: "", toolsJson: "" });
    await deleteResults(store, "t1", deleteTargetFrom(create(DeleteRequestSchema, { target: { case: "sessionId", value: "s1" } })), Date.now());
    assert.equal((await read(store, "t1", {})).lastSeq, 0);
    assert.equal((await read(store, "t1", { sessionId: "s2" })).lastSeq, 1);
  });
});
