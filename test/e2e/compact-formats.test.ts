import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { CompactPath, ConversationService, HistoryFormat } from "@loupe/proto";
import { startVendorServer, type VendorServer } from "@loupe/testing";
import { agentSession } from "../support/agent-session.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";

// Each format's compacted context, completed with the fields a runtime adds, goes to the vendor stand-in,
// which checks it as the vendor does (400 with the vendor's error when a rule is broken).
const FORMATS = [
  {
    format: HistoryFormat.ANTHROPIC,
    path: "/v1/messages",
    complete: (body: Record<string, unknown>) => ({ model: "claude-sonnet-4-5", max_tokens: 1024, ...body }),
  },
  { format: HistoryFormat.OPENAI_CHAT, path: "/v1/chat/completions", complete: (body: Record<string, unknown>) => ({ model: "gpt-4.1", ...body }) },
  { format: HistoryFormat.OPENAI_RESPONSES, path: "/v1/responses", complete: (body: Record<string, unknown>) => ({ model: "gpt-4.1", ...body }) },
] as const;

describe("Compact in every history format, accepted by the vendor", () => {
  let loupe: EmbeddedLoupe;
  let vendor: VendorServer;
  let conversation: GrpcClient<typeof ConversationService>;

  before(async () => {
    loupe = await startEmbeddedLoupe();
    vendor = await startVendorServer();
    conversation = createGrpcClient(ConversationService, `127.0.0.1:${String(loupe.grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
    const tools = JSON.stringify([
      { name: "Bash", description: "run a command", input_schema: { type: "object", properties: { command: { type: "string" } } } },
    ]);
    await conversation.appendTurns({
      sessionId: "formats",
      source: "app",
      systemPrompt: "You are a coding agent.",
      toolsJson: tools,
      turns: agentSession(12),
      contextWindowTokens: 8000,
    });
  });
  after(async () => {
    conversation.close();
    await loupe.stop();
    await vendor.close();
  });

  for (const { format, path, complete } of FORMATS) {
    it(`${HistoryFormat[format]}: fits, keeps the system prompt and the note, and the vendor accepts it`, async () => {
      const compacted = await conversation.compact({ sessionId: "formats", format, contextLimitTokens: 6000, reserveTokens: 1000 });
      assert.ok(compacted.path === CompactPath.PREPARED || compacted.path === CompactPath.FALLBACK, compacted.reason);
      assert.ok(compacted.tokens <= 5000, `tokens ${String(compacted.tokens)}`);
      const body = JSON.parse(new TextDecoder().decode(compacted.messagesJson)) as Record<string, unknown>;
      assert.match(JSON.stringify(body), /You are a coding agent\./);
      assert.match(JSON.stringify(body), /Handover note/);
      if (format === HistoryFormat.OPENAI_RESPONSES) {
        assert.equal(body["instructions"], "You are a coding agent.");
        assert.ok(Array.isArray(body["input"]));
      }
      const answer = await fetch(`${vendor.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(complete(body)),
      });
      assert.equal(answer.status, 200, await answer.text());
    });
  }
});
