// Compact at the window's limit: PREPARED (the background note is ready: no model call) against FALLBACK
// (summarize the older middle now), with the vendor stand-in adding a model's delay. Prints medians and the ratio.
import { createGrpcClient } from "@loupe/grpc";
import { CompactPath, ConversationService, HistoryFormat, RulesService } from "@loupe/proto";
import { startVendorServer } from "@loupe/testing";
import { agentSession } from "../support/agent-session.js";
import { startEmbeddedLoupe } from "../support/embedded-loupe.js";
import { eventually } from "../support/eventually.js";
import { median, quantile, since } from "./support/stats.js";

const MODEL_DELAY_MS = Number(process.env["LOUPE_BENCH_MODEL_DELAY_MS"] ?? 1500);
const CALLS = 9;
const ROUNDS = 30;

const vendor = await startVendorServer({ delayMs: MODEL_DELAY_MS });
const loupe = await startEmbeddedLoupe({ LOUPE_BENCH_KEY: "sk-bench" });
const address = `127.0.0.1:${String(loupe.grpcPort)}`;
const conversation = createGrpcClient(ConversationService, address, { maxResultBytes: 64 * 1024 * 1024 });
const rules = createGrpcClient(RulesService, address, { maxResultBytes: 1024 * 1024 });
try {
  await rules.setSourceLimit({
    source: "bench",
    limit: { summarizer: { driver: "anthropic", model: "claude-bench", baseUrl: vendor.url, keyRef: "env:LOUPE_BENCH_KEY" } },
  });
  const turns = agentSession(ROUNDS);
  const limit = { contextLimitTokens: 16_000, reserveTokens: 2000 };

  // PREPARED: one session whose note the worker keeps (window 16,000 tokens: updates every 3,200 uncovered tokens).
  await conversation.appendTurns({
    sessionId: "prepared",
    source: "bench",
    systemPrompt: "You are a coding agent.",
    turns,
    contextWindowTokens: limit.contextLimitTokens,
  });
  await eventually(
    async () => {
      const { note, lagTurns } = await conversation.getNote({ sessionId: "prepared" });
      return note !== undefined && note.lagTokens < 3200 && lagTurns < turns.length ? true : undefined;
    },
    120_000,
    200,
  );
  const prepared: number[] = [];
  for (let call = 0; call < CALLS; call++) {
    const started = performance.now();
    const answer = await conversation.compact({ sessionId: "prepared", format: HistoryFormat.ANTHROPIC, ...limit });
    prepared.push(since(started));
    if (answer.path !== CompactPath.PREPARED) throw new Error(`expected PREPARED: ${answer.reason}`);
  }

  // FALLBACK: fresh sessions with no note (a window so large the worker never updates), one Compact each.
  const fallback: number[] = [];
  for (let call = 0; call < CALLS; call++) {
    const sessionId = `fallback-${String(call)}`;
    await conversation.appendTurns({ sessionId, source: "bench", systemPrompt: "You are a coding agent.", turns, contextWindowTokens: 5_000_000 });
    const started = performance.now();
    const answer = await conversation.compact({ sessionId, format: HistoryFormat.ANTHROPIC, ...limit });
    fallback.push(since(started));
    if (answer.path !== CompactPath.FALLBACK) throw new Error(`expected FALLBACK: ${answer.reason}`);
  }

  console.log(
    `Compact of a ${String(turns.length)}-turn session into ${String(limit.contextLimitTokens)} tokens; vendor model delay ${String(MODEL_DELAY_MS)} ms; ${String(CALLS)} calls each`,
  );
  console.log("path        p50 ms    p90 ms");
  console.log(`PREPARED ${median(prepared).toFixed(1).padStart(9)} ${quantile(prepared, 0.9).toFixed(1).padStart(9)}`);
  console.log(`FALLBACK ${median(fallback).toFixed(1).padStart(9)} ${quantile(fallback, 0.9).toFixed(1).padStart(9)}`);
  console.log(`FALLBACK / PREPARED (p50): ${(median(fallback) / median(prepared)).toFixed(1)}×`);
} finally {
  conversation.close();
  rules.close();
  await loupe.stop();
  await vendor.close();
}
