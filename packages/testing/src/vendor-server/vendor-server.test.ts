import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startVendorServer, type VendorServer } from "./vendor-server.js";

const post = async (url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};

const history = (turns: number): Array<{ role: string; content: string }> =>
  Array.from({ length: turns }, (_, index) => ({ role: index % 2 === 0 ? "user" : "assistant", content: `turn:${String(index + 1)} ${"x".repeat(400)}` }));

describe("startVendorServer()", () => {
  let vendor: VendorServer;
  before(async () => {
    vendor = await startVendorServer();
  });
  after(() => vendor.close());

  it("rejects Messages API requests the vendor would reject, with its error shape", async () => {
    const toolUse = { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] };
    const cases: Array<[string, unknown]> = [
      ["no model", { max_tokens: 1, messages: [{ role: "user", content: "hi" }] }],
      ["max_tokens 0", { model: "m", max_tokens: 0, messages: [{ role: "user", content: "hi" }] }],
      ["no messages", { model: "m", max_tokens: 1, messages: [] }],
      [
        "assistant first",
        {
          model: "m",
          max_tokens: 1,
          messages: [
            { role: "assistant", content: "hi" },
            { role: "user", content: "x" },
          ],
        },
      ],
      [
        "two user messages",
        {
          model: "m",
          max_tokens: 1,
          messages: [
            { role: "user", content: "a" },
            { role: "user", content: "b" },
          ],
        },
      ],
      [
        "ends with assistant",
        {
          model: "m",
          max_tokens: 1,
          messages: [
            { role: "user", content: "a" },
            { role: "assistant", content: "b" },
          ],
        },
      ],
      ["orphan tool_result", { model: "m", max_tokens: 1, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t9", content: "x" }] }] }],
      ["unanswered tool_use", { model: "m", max_tokens: 1, messages: [{ role: "user", content: "a" }, toolUse, { role: "user", content: "b" }] }],
      [
        "tool_result after text",
        {
          model: "m",
          max_tokens: 1,
          messages: [
            { role: "user", content: "a" },
            toolUse,
            {
              role: "user",
              content: [
                { type: "text", text: "x" },
                { type: "tool_result", tool_use_id: "t1", content: "x" },
              ],
            },
          ],
        },
      ],
      [
        "result two messages late",
        {
          model: "m",
          max_tokens: 1,
          messages: [
            { role: "user", content: "a" },
            toolUse,
            { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] },
            { role: "assistant", content: "ok" },
            { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] },
          ],
        },
      ],
      ["blank text", { model: "m", max_tokens: 1, messages: [{ role: "user", content: [{ type: "text", text: " " }] }] }],
    ];
    for (const [name, body] of cases) {
      const answer = await post(`${vendor.url}/v1/messages`, body);
      assert.equal(answer.status, 400, name);
      assert.equal(answer.json["type"], "error", name);
      assert.equal((answer.json["error"] as { type: string }).type, "invalid_request_error", name);
    }
  });

  it("rejects Chat Completions requests OpenAI would reject", async () => {
    const call = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] };
    const cases: Array<[string, unknown]> = [
      ["no model", { messages: [{ role: "user", content: "hi" }] }],
      ["no messages", { model: "m", messages: [] }],
      [
        "tool without call",
        {
          model: "m",
          messages: [
            { role: "user", content: "hi" },
            { role: "tool", tool_call_id: "c1", content: "x" },
          ],
        },
      ],
      ["unanswered call", { model: "m", messages: [{ role: "user", content: "hi" }, call, { role: "user", content: "x" }] }],
    ];
    for (const [name, body] of cases) {
      const answer = await post(`${vendor.url}/v1/chat/completions`, body);
      assert.equal(answer.status, 400, name);
      assert.equal(typeof (answer.json["error"] as { message: unknown }).message, "string", name);
    }
    const ok = await post(`${vendor.url}/v1/chat/completions`, {
      model: "m",
      messages: [{ role: "user", content: "hi" }, call, { role: "tool", tool_call_id: "c1", content: "x" }],
    });
    assert.equal(ok.status, 200);
  });

  it("reports the longest prefix an earlier request sent as cached, in each vendor's usage shape", async () => {
    const model = `cache-${String(Date.now())}`;
    const first = await post(`${vendor.url}/v1/messages`, { model, max_tokens: 10, system: "be brief", messages: history(5) });
    const firstUsage = first.json["usage"] as Record<string, number>;
    assert.equal(firstUsage["cache_read_input_tokens"], 0);
    const second = await post(`${vendor.url}/v1/messages`, { model, max_tokens: 10, system: "be brief", messages: history(7) });
    const usage = second.json["usage"] as Record<string, number>;
    assert.ok(usage["cache_read_input_tokens"]! > 0);
    assert.ok(usage["cache_read_input_tokens"]! >= (firstUsage["input_tokens"] ?? 0) - 2, "the whole first request is a prefix of the second");
    assert.ok(usage["input_tokens"]! > 0 && usage["input_tokens"]! < 300, "only the new messages are uncached");
    const otherSystem = await post(`${vendor.url}/v1/messages`, { model, max_tokens: 10, system: "be long", messages: history(7) });
    assert.equal((otherSystem.json["usage"] as Record<string, number>)["cache_read_input_tokens"], 0, "a different system prompt changes every prefix");
    const chat = await post(`${vendor.url}/v1/chat/completions`, { model, messages: history(3) });
    const chatAgain = await post(`${vendor.url}/v1/chat/completions`, { model, messages: history(5) });
    assert.equal((chat.json["usage"] as { prompt_tokens_details: { cached_tokens: number } }).prompt_tokens_details.cached_tokens, 0);
    const chatUsage = chatAgain.json["usage"] as { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } };
    assert.ok(chatUsage.prompt_tokens_details.cached_tokens > 0 && chatUsage.prompt_tokens_details.cached_tokens < chatUsage.prompt_tokens);
    const stats = vendor.cacheStats();
    assert.ok(stats.requests >= 5 && stats.cachedTokens > 0 && stats.inputTokens > stats.cachedTokens);
  });

  it("ignores cache_control when comparing prefixes (it marks a breakpoint, it is not content)", async () => {
    const model = `marks-${String(Date.now())}`;
    const marked = history(3).map((message, index) => ({
      role: message.role,
      content: [{ type: "text", text: message.content, ...(index === 2 ? { cache_control: { type: "ephemeral" } } : {}) }],
    }));
    await post(`${vendor.url}/v1/messages`, { model, max_tokens: 10, messages: marked });
    const plain = history(3).map((message) => ({ role: message.role, content: [{ type: "text", text: message.content }] }));
    const again = await post(`${vendor.url}/v1/messages`, {
      model,
      max_tokens: 10,
      messages: [...plain, { role: "assistant", content: "ok" }, { role: "user", content: "more" }],
    });
    assert.ok((again.json["usage"] as Record<string, number>)["cache_read_input_tokens"]! > 300);
  });

  it("answers with a note naming the last turn address, and with injected failures on demand", async () => {
    const answer = await post(`${vendor.url}/v1/messages`, { model: "m", max_tokens: 10, messages: history(3) });
    const content = answer.json["content"] as Array<{ text: string }>;
    assert.match(content[0]?.text ?? "", /^# Handover note\n[\s\S]*turn:3/);
    vendor.failNext(429, { message: "slow down", times: 2 });
    assert.equal((await post(`${vendor.url}/v1/chat/completions`, { model: "m", messages: history(1) })).status, 429);
    const second = await post(`${vendor.url}/v1/messages`, { model: "m", max_tokens: 10, messages: history(1) });
    assert.deepEqual(second.json, { type: "error", error: { type: "rate_limit_error", message: "slow down" } });
    assert.equal((await post(`${vendor.url}/v1/messages`, { model: "m", max_tokens: 10, messages: history(1) })).status, 200);
  });

  it("checks and answers the Responses API in its shape, and other paths as before", async () => {
    const answer = await post(`${vendor.url}/v1/responses`, { model: "m", input: "hi" });
    assert.equal(answer.json["object"], "response");
    assert.equal((answer.json["output"] as Array<{ content: Array<{ type: string }> }>)[0]?.content[0]?.type, "output_text");
    const orphan = await post(`${vendor.url}/v1/responses`, { model: "m", input: [{ type: "function_call_output", call_id: "c9", output: "x" }] });
    assert.equal(orphan.status, 400);
    assert.match(JSON.stringify(orphan.json), /No tool call found for function call output with call_id c9/);
    const echo = await post(`${vendor.url}/v1/embeddings`, { model: "m", input: "hi" });
    assert.deepEqual(echo.json, { id: "resp_1", echoed_bytes: 26 });
    const count = await post(`${vendor.url}/v1/messages/count_tokens`, { model: "m", messages: [] });
    assert.deepEqual(count.json, { input_tokens: 42 });
  });

  it("waits delayMs before answering and uses a configured reply", async () => {
    const slow = await startVendorServer({ delayMs: 150, replyText: (request) => `reply via ${request.api}` });
    try {
      const started = performance.now();
      const answer = await post(`${slow.url}/v1/chat/completions`, { model: "m", messages: history(1) });
      assert.ok(performance.now() - started >= 140);
      assert.equal((answer.json["choices"] as Array<{ message: { content: string } }>)[0]?.message.content, "reply via openai");
    } finally {
      await slow.close();
    }
  });
});
