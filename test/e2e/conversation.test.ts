import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { CompactPath, ConversationService, HistoryFormat } from "@loupe/proto";
import { agentSession } from "../support/agent-session.js";
import { eventually as poll } from "../support/eventually.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";

const eventually = <T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => poll(probe, timeoutMs, 100);
const isCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;

describe("conversation: turn log, background notes, Compact (embedded)", () => {
  let loupe: EmbeddedLoupe;
  let conversation: GrpcClient<typeof ConversationService>;

  before(async () => {
    loupe = await startEmbeddedLoupe();
    conversation = createGrpcClient(ConversationService, `127.0.0.1:${String(loupe.grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
  });
  after(async () => {
    conversation.close();
    await loupe.stop();
  });

  it("accepts turns once: a retry counts duplicates, other bytes for an accepted seq are refused", async () => {
    const turns = agentSession(6);
    const first = await conversation.appendTurns({
      sessionId: "once",
      source: "app",
      systemPrompt: "You are a coding agent.",
      toolsJson: "[]",
      turns,
      contextWindowTokens: 100_000,
    });
    assert.equal(first.accepted, turns.length);
    assert.equal(first.duplicates, 0);
    assert.equal(first.lastSeq, turns.length);
    assert.ok(first.sessionTokens > 0);
    assert.equal(first.compactionDue, false);
    const retry = await conversation.appendTurns({ sessionId: "once", turns: turns.slice(-3) });
    assert.deepEqual([retry.accepted, retry.duplicates, retry.sessionTokens], [0, 3, first.sessionTokens]);
    await assert.rejects(
      conversation.appendTurns({ sessionId: "once", turns: [{ seq: 2, role: "assistant", parts: [{ content: { case: "text", value: "rewritten" } }] }] }),
      isCode("already_exists"),
    );
    await assert.rejects(conversation.appendTurns({ sessionId: "", turns }), isCode("invalid_argument"));
    await assert.rejects(
      conversation.appendTurns({ sessionId: "x", turns: [{ seq: 1, role: "tool", parts: [{ content: { case: "text", value: "?" } }] }] }),
      isCode("invalid_argument"),
    );
    await assert.rejects(
      conversation.appendTurns({ sessionId: "x", turns: [{ seq: 0, role: "user", parts: [{ content: { case: "text", value: "?" } }] }] }),
      isCode("invalid_argument"),
    );
    // Nothing already accepted was lost to the refused calls.
    const history = await conversation.readHistory({ sessionId: "once", startSeq: 1, budgetTokens: 200_000 });
    assert.equal(history.turns.length, turns.length);
    assert.equal(history.nextCursor, "");
  });

  it("keeps a rolling note in the background once uncovered turns pass the threshold, citing addresses", async () => {
    // Window 6,000 tokens: the note updates every 1,200 uncovered tokens (20%).
    const turns = agentSession(14);
    const appended = await conversation.appendTurns({
      sessionId: "notes",
      source: "app",
      systemPrompt: "You are a coding agent.",
      turns,
      contextWindowTokens: 6000,
    });
    assert.equal(appended.compactionDue, appended.sessionTokens >= appended.compactAtTokens);
    const { note } = await eventually(async () => {
      const got = await conversation.getNote({ sessionId: "notes" });
      return got.note !== undefined && got.note.version > 0 ? got : undefined;
    });
    assert.ok(note);
    assert.ok(note.coveredThroughSeq > 0 && note.coveredThroughSeq <= turns.length);
    assert.equal(note.author, "extractive");
    assert.match(note.text, /turn:1\b/, "the objective is cited");
    assert.match(note.text, /parser/);
    assert.match(note.text, /TypeError/);
    assert.equal(note.lagTurns, turns.length - note.coveredThroughSeq);
  });

  it("compacts at once from the prepared note (PREPARED), and sees a turn appended just before", async () => {
    const turns = agentSession(14);
    await conversation.appendTurns({ sessionId: "prepared", source: "app", systemPrompt: "You are a coding agent.", turns, contextWindowTokens: 6000 });
    const noted = await eventually(async () => {
      const got = await conversation.getNote({ sessionId: "prepared" });
      return (got.note?.version ?? 0) > 0 ? got : undefined;
    });
    const late = { seq: turns.length + 1, role: "user", parts: [{ content: { case: "text" as const, value: "Also bump the version in package.json." } }] };
    await conversation.appendTurns({ sessionId: "prepared", turns: [late] });
    const compacted = await conversation.compact({ sessionId: "prepared", format: HistoryFormat.ANTHROPIC, contextLimitTokens: 100_000, reserveTokens: 4000 });
    assert.equal(compacted.path, CompactPath.PREPARED, compacted.reason);
    assert.ok(compacted.watermarkSeq >= (noted.note?.coveredThroughSeq ?? 0));
    const body = JSON.parse(new TextDecoder().decode(compacted.messagesJson)) as {
      system: string;
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    };
    assert.equal(body.system, "You are a coding agent.");
    assert.match(body.messages[0]?.content[0]?.text ?? "", /Handover note/);
    assert.match(
      body.messages[0]?.content[0]?.text ?? "",
      /read_history and search_history tools \(session_id "prepared"\)/,
      "the note names its session, so the model can follow it",
    );
    assert.match(JSON.stringify(body.messages.at(-1)), /bump the version/, "read-your-writes: the turn appended just before is there");
    assert.ok(compacted.tokens <= 100_000 - 4000);
    const openai = await conversation.compact({ sessionId: "prepared", format: HistoryFormat.OPENAI_CHAT, contextLimitTokens: 100_000, reserveTokens: 4000 });
    const chat = JSON.parse(new TextDecoder().decode(openai.messagesJson)) as { messages: Array<{ role: string }> };
    assert.equal(chat.messages[0]?.role, "system");
  });

  it("falls back to compacting now when no note covers enough (FALLBACK), and never returns what does not fit", async () => {
    const turns = agentSession(20);
    // A huge window: the worker's threshold is never reached, so there is no note.
    await conversation.appendTurns({ sessionId: "fallback", source: "app", systemPrompt: "You are a coding agent.", turns, contextWindowTokens: 5_000_000 });
    const compacted = await conversation.compact({ sessionId: "fallback", format: HistoryFormat.ANTHROPIC, contextLimitTokens: 4000, reserveTokens: 500 });
    assert.equal(compacted.path, CompactPath.FALLBACK);
    assert.match(compacted.reason, /no note yet/);
    assert.ok(compacted.tokens <= 4000 - 500, `tokens ${String(compacted.tokens)}`);
    assert.ok(compacted.note && compacted.note.coveredThroughSeq > 0);
    // The fallback note is stored: the worker continues from it.
    assert.equal((await conversation.getNote({ sessionId: "fallback" })).note?.version, compacted.note.version);
    await assert.rejects(
      conversation.compact({ sessionId: "fallback", format: HistoryFormat.ANTHROPIC, contextLimitTokens: 100, reserveTokens: 99 }),
      isCode("resource_exhausted"),
    );
    await assert.rejects(conversation.compact({ sessionId: "nobody", format: HistoryFormat.ANTHROPIC, contextLimitTokens: 4000 }), isCode("not_found"));
    await assert.rejects(conversation.compact({ sessionId: "fallback", contextLimitTokens: 4000 }), isCode("invalid_argument"));
  });

  it("reads history by address, range and cursor within the budget, and finds turns by search", async () => {
    const turns = agentSession(10);
    await conversation.appendTurns({ sessionId: "history", turns });
    const one = await conversation.readHistory({ sessionId: "history", address: "turn:8" });
    assert.deepEqual([one.startSeq, one.endSeq, one.turns.length], [8, 8, 1]);
    assert.match(one.text, /^turn:8 assistant/);
    // Paging through everything with a small budget visits every turn once, in order.
    const seen: number[] = [];
    let cursor = "";
    let pages = 0;
    do {
      const page = await conversation.readHistory({ sessionId: "history", startSeq: 1, budgetTokens: 300, cursor });
      for (let seq = page.startSeq; seq <= page.endSeq; seq++) if (!seen.includes(seq)) seen.push(seq);
      assert.notEqual(page.nextCursor, cursor, "every cursor advances");
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== "" && pages < 500);
    assert.deepEqual(
      seen,
      turns.map((turn) => turn.seq),
    );
    const found = await conversation.searchHistory({ sessionId: "history", query: "TypeError", limit: 5 });
    assert.ok(found.hits.length >= 1);
    assert.equal(found.hits[0]?.address, `turn:${String(found.hits[0]?.seq)}`);
    assert.match(found.hits[0]?.snippet ?? "", /TypeError/);
    await assert.rejects(conversation.readHistory({ sessionId: "history", address: "turn:x" }), isCode("invalid_argument"));
    await assert.rejects(conversation.readHistory({ sessionId: "history", address: "turn:999" }), isCode("not_found"));
  });

  it("takes a model's own note (PutNote), refuses one past the log, and releases state at EndSession", async () => {
    await conversation.appendTurns({ sessionId: "handover", turns: agentSession(3) });
    const put = await conversation.putNote({ sessionId: "handover", text: "Objective: fix parser. Done: nothing yet.", coveredThroughSeq: 4 });
    assert.deepEqual([put.note?.author, put.note?.coveredThroughSeq, put.note?.version], ["model", 4, 1]);
    const got = await conversation.getNote({ sessionId: "handover" });
    assert.equal(got.note?.text, "Objective: fix parser. Done: nothing yet.");
    assert.equal(got.lagTurns, 3);
    await assert.rejects(conversation.putNote({ sessionId: "handover", text: "x", coveredThroughSeq: 99 }), isCode("failed_precondition"));
    await assert.rejects(conversation.putNote({ sessionId: "handover", text: " ", coveredThroughSeq: 1 }), isCode("invalid_argument"));
    const ended = await conversation.endSession({ sessionId: "handover" });
    assert.ok(ended.released >= 2);
    await assert.rejects(conversation.getNote({ sessionId: "handover" }), isCode("not_found"));
    // The log stays readable after the session's state is released.
    assert.equal((await conversation.readHistory({ sessionId: "handover", address: "turn:1" })).turns.length, 1);
  });

  it("forgets a session when its data is deleted: turn log, note and state", async () => {
    await conversation.appendTurns({ sessionId: "forget me", turns: agentSession(2) });
    await conversation.putNote({ sessionId: "forget me", text: "note", coveredThroughSeq: 2 });
    const deleted = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/api/teams/local/sessions/${encodeURIComponent("forget me")}`, { method: "DELETE" });
    assert.equal(deleted.status, 200);
    await assert.rejects(conversation.getNote({ sessionId: "forget me" }), isCode("not_found"));
    await assert.rejects(conversation.readHistory({ sessionId: "forget me", address: "turn:1" }), isCode("not_found"));
    assert.equal((await conversation.searchHistory({ sessionId: "forget me", query: "parser" })).hits.length, 0);
  });
});
