import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { CompactPath, ConversationService, HistoryFormat, RulesService } from "@loupe/proto";
import { startVendorServer, type VendorServer } from "@loupe/testing";
import { agentSession, type TurnInit } from "../support/agent-session.js";
import { eventually as poll } from "../support/eventually.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";

const eventually = <T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> => poll(probe, timeoutMs, 100);
const KEY = "sk-ant-test-DO-NOT-LOG-7f3a9c";

describe("notes written by a vendor model (bring your own key), as a background fork of the session", () => {
  let vendor: VendorServer;
  let loupe: EmbeddedLoupe;
  let conversation: GrpcClient<typeof ConversationService>;
  let rules: GrpcClient<typeof RulesService>;

  before(async () => {
    vendor = await startVendorServer();
    loupe = await startEmbeddedLoupe({ LOUPE_TEST_VENDOR_KEY: KEY });
    const address = `127.0.0.1:${String(loupe.grpcPort)}`;
    conversation = createGrpcClient(ConversationService, address, { maxResultBytes: 64 * 1024 * 1024 });
    rules = createGrpcClient(RulesService, address, { maxResultBytes: 1024 * 1024 });
    await rules.setSourceLimit({
      source: "vendor-app",
      limit: { summarizer: { driver: "anthropic", model: "claude-test", baseUrl: vendor.url, keyRef: "env:LOUPE_TEST_VENDOR_KEY" }, noteUpdatePercent: 15 },
    });
  });
  after(async () => {
    conversation.close();
    rules.close();
    await loupe.stop();
    await vendor.close();
  });

  const append = async (sessionId: string, turns: TurnInit[]) => {
    for (let start = 0; start < turns.length; start += 4) {
      await conversation.appendTurns({
        sessionId,
        source: "vendor-app",
        systemPrompt: "You are a coding agent.",
        toolsJson: JSON.stringify([{ name: "Bash", description: "run a command", input_schema: { type: "object" } }]),
        turns: turns.slice(start, start + 4),
        contextWindowTokens: 8000,
      });
    }
  };

  it("updates the note through the vendor with valid requests whose prefixes the prompt cache serves, never logging the key", async (t) => {
    await append("byok", agentSession(24));
    const note = await eventually(async () => {
      const got = await conversation.getNote({ sessionId: "byok" });
      return (got.note?.version ?? 0) >= 3 ? got.note : undefined;
    });
    assert.equal(note?.author, "anthropic", "every update went through the vendor (a refused request would fall back to extractive)");
    const requests = vendor.received.filter((request) => request.path === "/v1/messages");
    assert.ok(requests.length >= 3);
    assert.ok(
      requests.every((request) => `${String(request.headers["x-api-key"] ?? "")}${String(request.headers.authorization ?? "")}`.includes(KEY)),
      "the key reached the vendor",
    );
    const stats = vendor.cacheStats();
    const share = stats.cachedTokens / stats.inputTokens;
    t.diagnostic(
      `prompt cache: ${String(stats.cachedTokens)} of ${String(stats.inputTokens)} input tokens served from cache (${(share * 100).toFixed(0)}%) over ${String(stats.requests)} requests`,
    );
    assert.ok(share > 0.3, `cached share ${share.toFixed(2)}`);
    assert.ok(!loupe.process.lines.some((line) => line.includes(KEY)), "the key is never logged");
    assert.match(loupe.process.lines.join("\n"), /"cachedInputTokens":[1-9]/);
  });

  it("compacts through the vendor when the note lags (FALLBACK)", async () => {
    await conversation.appendTurns({
      sessionId: "lagging",
      source: "vendor-app",
      systemPrompt: "You are a coding agent.",
      turns: agentSession(12),
      contextWindowTokens: 5_000_000,
    });
    const compacted = await conversation.compact({ sessionId: "lagging", format: HistoryFormat.ANTHROPIC, contextLimitTokens: 6000, reserveTokens: 1000 });
    assert.equal(compacted.path, CompactPath.FALLBACK);
    assert.ok(compacted.tokens <= 5000);
    assert.equal(compacted.note?.author, "anthropic");
    assert.doesNotMatch(compacted.reason, /failed/);
  });
  it("falls back to the extractive summarizer when the vendor refuses the key, keeping the earlier note's text", async () => {
    await append("refused", agentSession(6));
    // Let the vendor's notes catch up first (less than one threshold uncovered), so the refusal hits the next update.
    const first = await eventually(async () => {
      const got = await conversation.getNote({ sessionId: "refused" });
      return (got.note?.version ?? 0) >= 1 && (got.note?.lagTokens ?? Infinity) < 1200 ? got.note : undefined;
    });
    assert.equal(first?.author, "anthropic");
    vendor.failNext(401, { message: "invalid x-api-key", times: 1000 });
    await append("refused", agentSession(10, 14));
    const next = await eventually(async () => {
      const got = await conversation.getNote({ sessionId: "refused" });
      return got.note?.author === "extractive" ? got.note : undefined;
    });
    assert.ok(next && next.version > (first?.version ?? 0));
    assert.ok(next.text.includes((first?.text ?? "").split("\n")[0] ?? "-"), "the vendor's note text is carried forward");
    assert.match(loupe.process.lines.join("\n"), /summarizer failed; the extractive summarizer writes this note/);
    assert.ok(!loupe.process.lines.some((line) => line.includes(KEY)));
  });
});
