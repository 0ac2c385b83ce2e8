import assert from "node:assert/strict";
import { inspect } from "node:util";
import { after, before, describe, it, mock } from "node:test";
import type { NoteUpdateInput, Summarizer } from "@loupe/conversation";
import { isAppError } from "@loupe/errors";
import { startTelemetry } from "@loupe/telemetry";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@loupe/telemetry/testing";
import { startVendorServer, type VendorServer } from "@loupe/testing";
import { createAnthropicSummarizer } from "./anthropic-summarizer.js";
import { createOpenAISummarizer } from "./openai-summarizer.js";
import { OPENAI_TOOLS_JSON, recordOf, sessionTurns, updateInput } from "./testing/session-turns.js";

const apiKey = ["sk-", "test-", "summarizer-0123456789abcdef"].join("");

interface Driver {
  name: "anthropic" | "openai";
  create(url: string, extra?: { timeoutMs?: number; apiKey?: string }): Summarizer;
  input(from: number, to: number, previous?: ReturnType<typeof recordOf>): NoteUpdateInput;
}

const turns = sessionTurns(24);
const DRIVERS: Driver[] = [
  {
    name: "anthropic",
    create: (url, extra = {}) => createAnthropicSummarizer({ apiKey, model: "claude-test", baseURL: url, ...extra }),
    input: (from, to, previous) => updateInput(turns, from, to, previous),
  },
  {
    name: "openai",
    create: (url, extra = {}) => createOpenAISummarizer({ apiKey, model: "gpt-test", baseURL: `${url}/v1`, ...extra }),
    input: (from, to, previous) => updateInput(turns, from, to, previous, OPENAI_TOOLS_JSON),
  },
];

async function rejection(promise: Promise<unknown>): Promise<Error & { code: string }> {
  const error = await promise.then(
    () => assert.fail("expected a rejection"),
    (reason: unknown) => reason,
  );
  assert.ok(isAppError(error), `an AppError, got ${inspect(error)}`);
  assert.ok(!inspect(error, { depth: 5 }).includes(apiKey), "the key is in neither message, stack nor cause");
  return error;
}

for (const driver of DRIVERS) {
  describe(`${driver.name} summarizer against the vendor server`, () => {
    let vendor: VendorServer;
    let reply = "";
    before(async () => {
      vendor = await startVendorServer({
        replyText: (request) => (reply === "" ? `# Handover note\nthrough turn:${String(/turn:(\d+) to turn:(\d+)/.exec(request.text)?.[2])}` : reply),
      });
    });
    after(() => vendor.close());

    it("makes one GenAI client span per note request: system, model, max tokens and usage, never the content", async () => {
      const exporter = new InMemorySpanExporter();
      const telemetry = startTelemetry({ serviceName: "summarizer-test", env: {}, spanProcessors: [new SimpleSpanProcessor(exporter)] });
      try {
        const model = driver.name === "anthropic" ? "claude-test" : "gpt-test";
        const draft = await driver.create(vendor.url).summarize(driver.input(1, 9));
        // One span of Loupe's (the vendor's SDK may add its own beneath it).
        const spans = exporter.getFinishedSpans().filter((each) => each.name.startsWith("chat "));
        assert.equal(
          spans.length,
          1,
          exporter
            .getFinishedSpans()
            .map((each) => each.name)
            .join(","),
        );
        const span = spans[0];
        assert.equal(span?.name, `chat ${model}`);
        assert.equal(span.kind, 2, "CLIENT");
        assert.equal(span.attributes["gen_ai.operation.name"], "chat");
        assert.equal(span.attributes["gen_ai.system"], driver.name);
        assert.equal(span.attributes["gen_ai.request.model"], model);
        assert.ok(Number(span.attributes["gen_ai.request.max_tokens"]) > 0);
        assert.equal(span.attributes["gen_ai.usage.input_tokens"], draft.inputTokens);
        assert.ok(Number(span.attributes["gen_ai.usage.output_tokens"]) > 0);
        assert.ok(!JSON.stringify(span.attributes).includes("Handover"), "no note text on the span");
      } finally {
        await telemetry.shutdown();
      }
    });

    it("sends a request the vendor accepts and returns the trimmed note with usage", async () => {
      const summarizer = driver.create(vendor.url);
      assert.equal(summarizer.name, driver.name);
      const draft = await summarizer.summarize(driver.input(1, 9));
      assert.equal(draft.text, "# Handover note\nthrough turn:9");
      assert.equal(draft.state, "");
      assert.ok((draft.inputTokens ?? 0) > 500);
      const sent = vendor.received.at(-1)!;
      assert.ok(sent.headers["authorization"] === `Bearer ${apiKey}` || sent.headers["x-api-key"] === apiKey, "the key is sent");
    });

    it("a second update whose prefix extends the first is served from the cache, and the draft says so", async () => {
      const summarizer = driver.create(vendor.url);
      const first = await summarizer.summarize(driver.input(1, 11));
      const second = await summarizer.summarize(driver.input(12, 19, recordOf(first.text, 11, 1, driver.name)));
      assert.ok((second.cachedInputTokens ?? 0) > 0, "cached tokens reported");
      assert.ok(
        (second.cachedInputTokens ?? 0) >= (first.inputTokens ?? 0) * 0.5,
        `most of the first request is reused (${String(second.cachedInputTokens)} of ${String(first.inputTokens)})`,
      );
      assert.ok((second.inputTokens ?? 0) > (second.cachedInputTokens ?? 0));
      assert.ok(vendor.cacheStats().cachedTokens >= (second.cachedInputTokens ?? 0));
    });

    it("stays valid for histories that start mid-exchange, end with a pending call, or repeat a role", async () => {
      const summarizer = driver.create(vendor.url);
      const midway = turns.filter((turn) => turn.seq >= 5);
      const inputs: NoteUpdateInput[] = [
        { ...driver.input(5, 10), coveredTurns: [], newTurns: midway.filter((turn) => turn.seq <= 10) },
        { ...driver.input(7, 12), coveredTurns: midway.filter((turn) => turn.seq < 7) },
        {
          ...driver.input(1, 3),
          newTurns: [
            ...turns.slice(0, 3),
            { seq: 4, role: "user", parts: [{ type: "text", text: "and the docs" }], toolCalls: [], toolResults: [], tokenCount: 3 },
          ],
        },
        { ...driver.input(1, 4), toolsJson: "" },
      ];
      for (const input of inputs) assert.match((await summarizer.summarize(input)).text, /^# Handover note/);
    });

    it("maps vendor errors to AppErrors without the key", async () => {
      const summarizer = driver.create(vendor.url);
      for (const [status, code] of [
        [401, "permission_denied"],
        [403, "permission_denied"],
        [400, "invalid_argument"],
        [422, "invalid_argument"],
        [429, "unavailable"],
        [500, "unavailable"],
        [529, "unavailable"],
      ] as const) {
        vendor.failNext(status, { message: `bad key ${apiKey}` });
        const error = await rejection(summarizer.summarize(driver.input(1, 3)));
        assert.equal(error.code, code, `status ${String(status)}`);
        assert.match(error.message, new RegExp(`^${driver.name} .*status=${String(status)}`));
      }
    });

    it("maps an empty answer to unavailable, a closed port to unavailable and a slow vendor to deadline_exceeded", async () => {
      reply = "   ";
      try {
        assert.equal((await rejection(driver.create(vendor.url).summarize(driver.input(1, 3)))).code, "unavailable");
      } finally {
        reply = "";
      }
      const closed = await startVendorServer();
      await closed.close();
      assert.equal((await rejection(driver.create(closed.url).summarize(driver.input(1, 3)))).code, "unavailable");
      const slow = await startVendorServer({ delayMs: 1_000 });
      try {
        assert.equal((await rejection(driver.create(slow.url, { timeoutMs: 100 }).summarize(driver.input(1, 3)))).code, "deadline_exceeded");
      } finally {
        await slow.close();
      }
    });

    it("honours the caller's signal and reports progress while in flight", async () => {
      const slow = await startVendorServer({ delayMs: 300 });
      try {
        const summarizer = driver.create(slow.url);
        const controller = new AbortController();
        const pending = summarizer.summarize(driver.input(1, 3), { signal: controller.signal });
        setTimeout(() => controller.abort(), 50);
        assert.equal((await rejection(pending)).code, "cancelled");
        assert.equal((await rejection(summarizer.summarize(driver.input(1, 3), { signal: AbortSignal.abort() }))).code, "cancelled");
        mock.timers.enable({ apis: ["setInterval"] });
        try {
          let progress = 0;
          const running = summarizer.summarize(driver.input(1, 3), { onProgress: () => (progress += 1) });
          mock.timers.tick(2_000);
          mock.timers.tick(2_000);
          assert.equal(progress, 2);
          await running;
          mock.timers.tick(10_000);
          assert.equal(progress, 2, "no progress after the call ended");
        } finally {
          mock.timers.reset();
        }
      } finally {
        await slow.close();
      }
    });
  });
}

describe("summarizer options", () => {
  it("refuses an empty key or model without naming the key", () => {
    assert.throws(() => createAnthropicSummarizer({ apiKey: "", model: "m" }), /apiKey is empty/);
    assert.throws(
      () => createOpenAISummarizer({ apiKey, model: " " }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && !error.message.includes(apiKey),
    );
  });
});
