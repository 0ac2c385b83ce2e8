import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { callTool, finalText, scriptSteps, type ScriptedRequest } from "./script.js";
import { startScriptedVendor, type ScriptedVendor } from "./scripted-vendor.js";

const post = async (url: string, body: unknown): Promise<string> => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return response.text();
};

/** The JSON of each `data:` line of an event stream (skipping `[DONE]`). */
const events = (stream: string): Array<Record<string, unknown>> =>
  stream
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as Record<string, unknown>);

describe("startScriptedVendor()", () => {
  let vendor: ScriptedVendor;
  const seen: ScriptedRequest[] = [];
  before(async () => {
    const steps = scriptSteps([callTool("run", { cmd: "ls" }), (request) => finalText(`got ${request.lastResults[0]?.text ?? "nothing"}`)]);
    vendor = await startScriptedVendor({ script: (request) => (seen.push(request), steps(request)) });
  });
  after(() => vendor.close());

  it("streams an Anthropic tool_use, then reads the tool_result back as the next step", async () => {
    const tools = [{ name: "run", input_schema: { type: "object" } }];
    const first = events(await post(`${vendor.url}/v1/messages?beta=true`, { model: "m", stream: true, tools, messages: [{ role: "user", content: "go" }] }));
    const start = first.find((event) => event["type"] === "content_block_start")?.["content_block"] as Record<string, unknown>;
    const delta = first.find((event) => event["type"] === "content_block_delta")?.["delta"] as Record<string, unknown>;
    assert.deepEqual([start["type"], start["name"], JSON.parse(String(delta["partial_json"]))], ["tool_use", "run", { cmd: "ls" }]);
    assert.equal((first.find((event) => event["type"] === "message_delta")?.["delta"] as Record<string, unknown>)["stop_reason"], "tool_use");
    const messages = [
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "tool_use", id: start["id"], name: "run", input: { cmd: "ls" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: start["id"], content: [{ type: "text", text: "a.txt" }], is_error: true }] },
    ];
    const second = JSON.parse(await post(`${vendor.url}/v1/messages`, { model: "m", tools, messages })) as { content: Array<{ text: string }> };
    assert.equal(second.content[0]?.text, "got a.txt");
    assert.deepEqual(seen.at(-1)?.lastResults, [{ callId: start["id"], name: "run", text: "a.txt", isError: true }]);
    assert.equal(seen.at(-1)?.step, 1);
  });

  it("answers side requests (no tools) with short text without calling the script", async () => {
    const before = seen.length;
    const answer = JSON.parse(await post(`${vendor.url}/v1/chat/completions`, { model: "m", messages: [{ role: "user", content: "title?" }] })) as {
      choices: Array<{ message: { content: string } }>;
    };
    assert.equal(answer.choices[0]?.message.content, "OK");
    assert.equal(seen.length, before);
    assert.equal(vendor.requests.at(-1)?.view?.side, true);
  });

  it("streams Responses API function_call items and Chat Completions tool_calls", async () => {
    const responses = events(
      await post(`${vendor.url}/v1/responses`, {
        model: "m",
        stream: true,
        tools: [{ type: "function", name: "run" }],
        input: [{ role: "user", content: "go" }],
      }),
    );
    const item = responses.find((event) => event["type"] === "response.output_item.done")?.["item"] as Record<string, unknown>;
    assert.deepEqual([item["type"], item["name"], item["arguments"]], ["function_call", "run", '{"cmd":"ls"}']);
    assert.equal(responses.at(-1)?.["type"], "response.completed");
    const chat = await post(`${vendor.url}/v1/chat/completions`, {
      model: "m",
      stream: true,
      tools: [{ type: "function", function: { name: "run" } }],
      messages: [{ role: "user", content: "go" }],
    });
    const calls = events(chat).flatMap(
      (event) => ((event["choices"] as Array<{ delta: { tool_calls?: unknown[] } }>)[0]?.delta.tool_calls ?? []) as Array<Record<string, unknown>>,
    );
    assert.equal((calls[0]?.["function"] as Record<string, unknown>)["name"], "run");
    assert.ok(chat.endsWith("data: [DONE]\n\n"));
  });

  it("speaks Gemini: functionCall parts over SSE, functionResponse results, JSON side answers that follow the schema", async () => {
    const body = { contents: [{ role: "user", parts: [{ text: "go" }] }], tools: [{ functionDeclarations: [{ name: "run" }] }] };
    const [chunk] = events(await post(`${vendor.url}/v1beta/models/g-1:streamGenerateContent?alt=sse`, body));
    const candidate = (chunk?.["candidates"] as Array<{ content: { parts: unknown[] } }>)[0];
    assert.deepEqual(candidate?.content.parts, [{ functionCall: { name: "run", args: { cmd: "ls" } } }]);
    const schema = { type: "OBJECT", properties: { reasoning: { type: "STRING" }, next_speaker: { type: "STRING", enum: ["user", "model"] } } };
    const side = JSON.parse(
      await post(`${vendor.url}/v1/models/g-1:generateContent`, {
        contents: body.contents,
        generationConfig: { responseMimeType: "application/json", responseSchema: schema },
      }),
    ) as typeof chunk;
    const text = (side?.["candidates"] as Array<{ content: { parts: Array<{ text: string }> } }>)[0]?.content.parts[0]?.text ?? "";
    assert.deepEqual(JSON.parse(text), { reasoning: "ok", next_speaker: "user" });
    const count = JSON.parse(await post(`${vendor.url}/v1beta/models/g-1:countTokens`, body)) as { totalTokens: number };
    assert.ok(count.totalTokens > 0);
  });

  it("records every request with its route and answers count_tokens and model listings", async () => {
    assert.ok((JSON.parse(await post(`${vendor.url}/v1/messages/count_tokens`, { messages: [] })) as { input_tokens: number }).input_tokens > 0);
    const models = (await (await fetch(`${vendor.url}/v1/models`)).json()) as { data: Array<{ id: string }>; models: unknown[] };
    assert.equal(models.data[0]?.id, "scripted-model");
    assert.deepEqual(
      vendor.requests.slice(-2).map((entry) => entry.route.kind),
      ["count_tokens", "models"],
    );
  });

  it("turns a throwing script into a final text naming the error", async () => {
    vendor.setScript(() => {
      throw new Error("no step for this");
    });
    const answer = JSON.parse(
      await post(`${vendor.url}/v1/messages`, { model: "m", tools: [{ name: "run" }], messages: [{ role: "user", content: "go" }] }),
    ) as { content: Array<{ text: string }> };
    assert.equal(answer.content[0]?.text, "script failed: no step for this");
    assert.equal(vendor.requests.at(-1)?.scriptError, "no step for this");
  });
});
