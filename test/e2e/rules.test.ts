import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createGrpcClient } from "@loupe/grpc";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { createTokenCounter } from "@loupe/projection";
import { HistoryFormat, RecoverRequestSchema, RulesService } from "@loupe/proto";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { textOf } from "../support/recover-omission.js";

const counter = createTokenCounter();

describe("per-app rules (RulesService and REST)", () => {
  let loupe: EmbeddedLoupe;
  before(async () => {
    loupe = await startEmbeddedLoupe();
  });
  after(() => loupe.stop());

  const rest = (method: string, path: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${String(loupe.httpPort)}${path}`, {
      method,
      headers: { "content-type": "application/json", "x-loupe-source": "claude-code" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("sets and reads a rule over gRPC with partial updates, and refuses a bad cut saying why", async () => {
    const rules = createGrpcClient(RulesService, `127.0.0.1:${String(loupe.grpcPort)}`, { maxResultBytes: 1024 * 1024 });
    const initial = await rules.getSourceLimit({ source: "codex" });
    assert.equal(initial.limit?.keepLimitChars, 0, "the cut is off by default");
    assert.deepEqual(initial.limit?.keepTools?.values, ["bash", "shell", "execute"]);
    await rules.setSourceLimit({ source: "codex", limit: { budgetTokens: 400 } });
    const cut = await rules.setSourceLimit({ source: "codex", limit: { keepLimitChars: 8000 } });
    assert.equal(cut.limit?.budgetTokens, 400);
    assert.equal(cut.limit?.keepLimitChars, 8000);
    await assert.rejects(
      rules.setSourceLimit({ source: "codex", limit: { keepLimitChars: 6000 } }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && /keep_limit_chars/.test(error.message),
    );
    await assert.rejects(rules.getSourceLimit({ source: "" }), (error: unknown) => isAppError(error) && error.code === "invalid_argument");
    rules.close();
  });

  it("uses the source's budget unless the request gives its own", async () => {
    const text = numberedLines(3000);
    const viaRule = await loupe.client.project({
      source: "codex",
      sessionId: "b",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] },
    });
    assert.ok(counter.count(textOf(viaRule.parts)) <= 400);
    const own = await loupe.client.project({
      source: "codex",
      budgetTokens: 1500,
      sessionId: "b",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] },
    });
    const tokens = counter.count(textOf(own.parts));
    assert.ok(tokens > 400 && tokens <= 1500, `the request's budget overrides the rule's (${String(tokens)})`);
  });

  it("cuts a vendor history per the app's rule over gRPC, byte-identical when the app has no cut", async () => {
    const long = numberedLines(1000);
    const history = new TextEncoder().encode(
      JSON.stringify({
        model: "claude",
        messages: [
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "make" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: long }] },
        ],
      }),
    );
    const cut = await loupe.client.cutHistory({ source: "codex", format: HistoryFormat.ANTHROPIC, historyJson: history });
    assert.equal(cut.cutResults, 1);
    assert.ok(cut.savedTokens > 0 && cut.historyJson.byteLength < history.byteLength / 2);
    const again = await loupe.client.cutHistory({ source: "codex", format: HistoryFormat.ANTHROPIC, historyJson: history });
    assert.ok(Buffer.from(again.historyJson).equals(Buffer.from(cut.historyJson)), "the same history gives the same bytes");
    const untouched = await loupe.client.cutHistory({ source: "no-rule-app", format: HistoryFormat.ANTHROPIC, historyJson: history });
    assert.ok(Buffer.from(untouched.historyJson).equals(Buffer.from(history)), "forwarded byte-identical");
    assert.equal(untouched.cutResults, 0);
  });

  it("applies a rule change only to results first seen after it, so a live history keeps its bytes", async () => {
    const rules = createGrpcClient(RulesService, `127.0.0.1:${String(loupe.grpcPort)}`, { maxResultBytes: 1024 * 1024 });
    await rules.setSourceLimit({ source: "pin-app", limit: { keepLimitChars: 8000 } });
    const exchange = (id: string, text: string) => [
      { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] },
    ];
    const first = numberedLines(1000, "first");
    const second = numberedLines(1000, "second");
    const encode = (messages: unknown[]) => new TextEncoder().encode(JSON.stringify({ model: "claude", messages }));
    const cut = async (messages: unknown[]) =>
      JSON.parse(
        new TextDecoder().decode(
          (await loupe.client.cutHistory({ source: "pin-app", format: HistoryFormat.ANTHROPIC, historyJson: encode(messages) })).historyJson,
        ),
      ) as { messages: Array<{ content: Array<{ content?: string }> }> };
    const before = await cut(exchange("t1", first));
    await rules.setSourceLimit({ source: "pin-app", limit: { keepHeadChars: 1000, keepTailChars: 1000 } });
    const after = await cut([...exchange("t1", first), ...exchange("t2", second)]);
    assert.equal(after.messages[1]?.content[0]?.content, before.messages[1]?.content[0]?.content, "the earlier result keeps the cut it was first given");
    const fresh = after.messages[3]?.content[0]?.content ?? "";
    assert.ok(fresh.length < 2200 && /\[loupe: lines [\d,]+–[\d,]+ of [\d,]+ omitted /.test(fresh), "the new result gets the new rule");
    rules.close();
  });

  it("projects eligible results in mode project: the first view with its continuations, the same bytes on every call", async () => {
    const rules = createGrpcClient(RulesService, `127.0.0.1:${String(loupe.grpcPort)}`, { maxResultBytes: 1024 * 1024 });
    await rules.setSourceLimit({ source: "project-app", limit: { keepLimitChars: 8000, mode: "project", budgetTokens: 500 } });
    const output = numberedLines(3000, "build");
    const history = new TextEncoder().encode(
      JSON.stringify({
        model: "claude",
        messages: [
          { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "make" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: output }] },
        ],
      }),
    );
    const call = () => loupe.client.cutHistory({ source: "project-app", format: HistoryFormat.ANTHROPIC, historyJson: history });
    const first = await call();
    const again = await call();
    assert.ok(Buffer.from(first.historyJson).equals(Buffer.from(again.historyJson)), "byte-identical on every call");
    // A later rule version (another budget) leaves a pinned result's view as it was, also one pinned at the default budget.
    await rules.setSourceLimit({ source: "project-default-app", limit: { keepLimitChars: 8000, mode: "project" } });
    const defaultCall = () => loupe.client.cutHistory({ source: "project-default-app", format: HistoryFormat.ANTHROPIC, historyJson: history });
    const atDefault = await defaultCall();
    assert.equal(atDefault.cutResults, 1);
    for (const source of ["project-app", "project-default-app"]) await rules.setSourceLimit({ source, limit: { budgetTokens: 200 } });
    rules.close();
    assert.ok(Buffer.from((await call()).historyJson).equals(Buffer.from(first.historyJson)), "the pin holds after the rule changes");
    assert.ok(Buffer.from((await defaultCall()).historyJson).equals(Buffer.from(atDefault.historyJson)), "a pin at the default budget holds too");
    assert.equal(first.cutResults, 1);
    const body = JSON.parse(new TextDecoder().decode(first.historyJson)) as { messages: Array<{ content: Array<{ content?: string }> }> };
    const view = body.messages[1]?.content[0]?.content ?? "";
    assert.ok(counter.count(view) <= 500, "within the rule's budget");
    const continuation = /recover with (\{[^\n]*\})/.exec(view)?.[1];
    assert.ok(continuation, view.slice(0, 400));
    const recovered = await loupe.client.recover(fromJson(RecoverRequestSchema, JSON.parse(continuation) as JsonValue));
    const page = recovered.parts.map((part) => (part.content.case === "text" ? part.content.value : "")).join("");
    assert.ok(page.length > 0 && output.includes(page), "the continuation reads the saved output");
    assert.ok(first.savedTokens > 0);
  });

  it("serves PUT and GET /api/teams/{team}/source-limits, partial and validated, and hides other teams", async () => {
    const put = await rest("PUT", "/api/teams/local/source-limits", { keep_limit_chars: 12000, keep_tools: { values: ["Bash"] } });
    assert.equal(put.status, 200);
    const body = (await put.json()) as { source: string; limit: Record<string, unknown> };
    assert.equal(body.source, "claude-code");
    assert.equal(body.limit["keep_limit_chars"], 12000);
    assert.equal(body.limit["keep_head_chars"], 3000, "defaults fill what the update left out");
    assert.deepEqual(body.limit["keep_tools"], ["Bash"], "keep_tools reads back as a plain array");
    const again = await rest("PUT", "/api/teams/local/source-limits?source=claude-code", { budget_tokens: 700 });
    const kept = ((await again.json()) as { limit: Record<string, unknown> }).limit;
    assert.equal(kept["keep_limit_chars"], 12000, "changing one field keeps the others");
    assert.equal(kept["budget_tokens"], 700);
    const bad = await rest("PUT", "/api/teams/local/source-limits", { keep_limit_chars: 100 });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { message: string }).message, /keep_limit_chars/);
    assert.equal((await rest("GET", "/api/teams/other-team/source-limits")).status, 404);
    const read = await rest("GET", "/api/teams/local/source-limits");
    assert.equal(((await read.json()) as { limit: Record<string, unknown> }).limit["budget_tokens"], 700);
  });

  it("takes seed 002's call as written: the app in the body, keep_tools a plain array", async () => {
    const put = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/api/teams/local/source-limits`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ source: "my-agent", keep_limit_chars: 8000, keep_tools: ["bash", "exec_command"] }),
    });
    assert.equal(put.status, 200, await put.clone().text());
    const read = (await (await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/api/teams/local/source-limits?source=my-agent`)).json()) as {
      source: string;
      limit: Record<string, unknown>;
    };
    assert.equal(read.source, "my-agent");
    assert.equal(read.limit["keep_limit_chars"], 8000);
    assert.deepEqual(read.limit["keep_tools"], ["bash", "exec_command"]);
    const clash = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/api/teams/local/source-limits?source=other`, {
      method: "PUT",
      body: JSON.stringify({ source: "my-agent", keep_limit_chars: 0 }),
    });
    assert.equal(clash.status, 400);
  });
});
