import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { createLoupeClient } from "@loupe/client";
import { RecoverRequestSchema } from "@loupe/proto";
import { startVendorServer, type VendorServer } from "@loupe/testing";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { eventually } from "../support/eventually.js";
import { numberedLines } from "../support/fixtures.js";

const apiKey = ["sk-ant-", "test-", "0123456789abcdef"].join("");
const long = numberedLines(1500);

function anthropicBody(toolName: string, stream = false): string {
  return JSON.stringify({
    model: "claude-sonnet",
    max_tokens: 100,
    stream,
    messages: [
      { role: "user", content: "fix the build" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: toolName, input: { command: "make" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: long }] },
    ],
  });
}

describe("vendor proxy on the gateway's HTTP port", () => {
  let vendor: VendorServer;
  let loupe: EmbeddedLoupe;
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${String(loupe.httpPort)}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey, "anthropic-version": "2023-06-01", ...headers },
      body,
    });

  before(async () => {
    vendor = await startVendorServer();
    loupe = await startEmbeddedLoupe({ LOUPE_ANTHROPIC_BASE_URL: vendor.url, LOUPE_OPENAI_BASE_URL: vendor.url });
    const rule = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/api/teams/local/source-limits?source=agent-a`, {
      method: "PUT",
      body: JSON.stringify({ keep_limit_chars: 8000 }),
    });
    assert.equal(rule.status, 200);
  });
  after(async () => {
    await loupe.stop();
    await vendor.close();
  });

  it("cuts eligible tool results per the app's rule, the same bytes on every call, auth forwarded, the app header dropped", async () => {
    const first = await post("/v1/messages", anthropicBody("Bash"), { "x-loupe-source": "agent-a" });
    assert.equal(first.status, 200);
    assert.ok(Number(first.headers.get("x-loupe-saved-tokens")) > 1000);
    await post("/v1/messages", anthropicBody("Bash"), { "x-proxium-source": "agent-a" });
    const [a, b] = vendor.received.slice(-2);
    assert.ok(a && b && a.body.equals(b.body), "the same history gives the same bytes");
    const forwarded = JSON.parse(a.body.toString("utf8")) as { messages: Array<{ content: Array<{ content?: string; tool_use_id?: string }> | string }> };
    const result = (forwarded.messages[2]?.content as Array<{ content?: string; tool_use_id?: string }>)[0];
    assert.equal(result?.tool_use_id, "toolu_1");
    // The notice names the original, saved whole the first time it was cut: nothing the cut removed is lost.
    const notice = /\n\[loupe: lines [\d,]+–[\d,]+ of 1,500 omitted \([\d,]+ characters\); whole output: recover (\{"result_id":"r_[\w-]+"\})\]\n/.exec(
      result?.content ?? "",
    );
    assert.ok(notice?.[1], result?.content);
    assert.ok((result?.content ?? "").length < 8000);
    const client = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}`, retries: 0 });
    assert.equal(await client.recoverAll(fromJson(RecoverRequestSchema, JSON.parse(notice[1]) as JsonValue)), long);
    client.close();
    // The proxy's cut is in the ledger, as CutHistory's would be.
    type Ledger = { entries: { rule_version: string; tokens_before: number; tokens_after: number }[] };
    const ledgerUrl = `http://127.0.0.1:${String(loupe.httpPort)}/api/teams/local/ledger?kinds=cut&source=agent-a`;
    // Entries are written in the background: wait for both.
    const ledger = await eventually(async () => {
      const page = (await (await fetch(ledgerUrl)).json()) as Ledger;
      return page.entries.length >= 2 ? page : undefined;
    }, 10_000);
    assert.equal(ledger.entries.length, 2, "one entry per request that cut");
    assert.ok((ledger.entries[0]?.tokens_before ?? 0) > (ledger.entries[0]?.tokens_after ?? 0));
    assert.equal(a.headers["x-api-key"], apiKey);
    assert.equal(a.headers["x-loupe-source"], undefined);
    assert.equal(a.path, "/v1/messages");
    assert.ok(!loupe.process.lines.join("\n").includes(apiKey), "keys are never logged");
  });

  it("forwards byte-identical when nothing is eligible (read is not in keep_tools; an app without a rule)", async () => {
    for (const [tool, source] of [
      ["Read", "agent-a"],
      ["Bash", "agent-b"],
    ] as const) {
      const body = anthropicBody(tool);
      await post("/v1/messages", body, { "x-loupe-source": source });
      assert.ok(vendor.received.at(-1)?.body.equals(Buffer.from(body)), `${tool} via ${source}`);
    }
  });

  it("mode project: each result becomes Loupe's view, which follows the call's intent from the history before it", async () => {
    await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/api/teams/local/source-limits?source=agent-p`, {
      method: "PUT",
      body: JSON.stringify({ keep_limit_chars: 8000, mode: "project" }),
    });
    const log = numberedLines(1500).replace(
      "row 00777: the quick brown fox jumps over the lazy dog",
      "row 00777: ERROR zebra_quota exceeded in resolve_lookup",
    );
    const body = JSON.stringify({
      model: "claude-sonnet",
      max_tokens: 100,
      messages: [
        { role: "user", content: "Why does resolve_lookup fail with zebra_quota?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Reading the build log for zebra_quota." },
            { type: "tool_use", id: "toolu_p", name: "Bash", input: { command: "cat build.log" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_p", content: log }] },
      ],
    });
    await post("/v1/messages", body, { "x-loupe-source": "agent-p" });
    const view = (JSON.parse(vendor.received.at(-1)?.body.toString("utf8") ?? "{}") as { messages: Array<{ content: Array<{ content?: string }> | string }> })
      .messages[2]?.content as Array<{ content?: string }>;
    assert.match(view[0]?.content ?? "", /row 00777: ERROR zebra_quota exceeded in resolve_lookup/);
    assert.match(view[0]?.content ?? "", /recover with \{"result_id":"r_/);
    await post("/v1/messages", body, { "x-loupe-source": "agent-p" });
    assert.ok(vendor.received.at(-1)?.body.equals(vendor.received.at(-2)?.body ?? Buffer.alloc(0)), "the same bytes on the next request");
  });

  it("passes a streamed answer through untouched", async () => {
    const answer = await post("/v1/messages", anthropicBody("Bash", true), { "x-loupe-source": "agent-a" });
    assert.equal(answer.headers.get("content-type"), "text/event-stream");
    const received: Buffer[] = [];
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) received.push(Buffer.from(chunk));
    assert.ok(Buffer.concat(received).equals(vendor.streamed));
    assert.ok(received.length > 1, "events arrived as they were sent, not buffered into one");
  });

  it("covers the OpenAI Chat Completions and Responses APIs", async () => {
    const chat = JSON.stringify({
      model: "gpt",
      messages: [
        { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "shell", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: long },
      ],
    });
    await post("/v1/chat/completions", chat, { "x-loupe-source": "agent-a", authorization: "Bearer test" });
    assert.ok(vendor.received.at(-1)?.body.toString("utf8").includes(" omitted ("));
    const responses = JSON.stringify({
      model: "gpt",
      input: [
        { type: "function_call", call_id: "c2", name: "execute", arguments: "{}" },
        { type: "function_call_output", call_id: "c2", output: long },
      ],
    });
    await post("/v1/responses", responses, { "x-loupe-source": "agent-a", authorization: "Bearer test" });
    const forwarded = vendor.received.at(-1);
    assert.equal(forwarded?.path, "/v1/responses");
    assert.equal(forwarded?.headers["authorization"], "Bearer test");
    assert.ok(forwarded?.body.toString("utf8").includes(" omitted ("));
  });

  it("forwards count_tokens cut as the messages will be sent (so the runtime counts what the model gets), and the model list", async () => {
    const body = anthropicBody("Bash");
    const count = await post("/v1/messages/count_tokens", body, { "x-loupe-source": "agent-a" });
    assert.deepEqual(await count.json(), { input_tokens: 42 });
    const resultOf = (body: string | undefined) =>
      (JSON.parse(body ?? "{}") as { messages: Array<{ content: Array<{ content: string }> }> }).messages[2]?.content[0]?.content;
    const counted = vendor.received.at(-1)?.body.toString("utf8");
    const sent = [...vendor.received]
      .reverse()
      .find((request) => request.path === "/v1/messages")
      ?.body.toString("utf8");
    assert.match(resultOf(counted) ?? "", / omitted \(/);
    assert.equal(resultOf(counted), resultOf(sent));
    const models = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/v1/models`, { headers: { "x-api-key": apiKey } });
    assert.deepEqual(await models.json(), { data: [{ id: "model-a" }] });
  });
});
