import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";

interface ProjectJson {
  parts: Array<{ text?: string }>;
  resultId: string;
  archived: boolean;
  omissions: Array<{ continuationJson: string; startLine: number; endLine: number }>;
}

describe("HTTP/JSON API (proto JSON mapping over plain HTTP)", () => {
  let loupe: EmbeddedLoupe;
  before(async () => {
    loupe = await startEmbeddedLoupe();
  });
  after(() => loupe.stop());

  const post = (path: string, body: unknown) =>
    fetch(`http://127.0.0.1:${String(loupe.httpPort)}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("projects with POST /v1/project and recovers with the continuation sent as it is to POST /v1/recover", async () => {
    const text = numberedLines(3000);
    const projected = await post("/v1/project", { session_id: "http", result: { tool_name: "bash", parts: [{ text }] } });
    assert.equal(projected.status, 200);
    const view = (await projected.json()) as ProjectJson;
    assert.equal(view.archived, true);
    const [omission] = view.omissions;
    assert.ok(omission);
    let recovered = "";
    let next: unknown = JSON.parse(omission.continuationJson);
    for (let page = 0; next !== undefined && page < 100; page++) {
      const answer = (await (await post("/v1/recover", next)).json()) as { parts: Array<{ text?: string }>; nextCursor?: string; resultId: string };
      recovered += answer.parts.map((part) => part.text ?? "").join("");
      next = answer.nextCursor ? { result_id: answer.resultId, cursor: answer.nextCursor } : undefined;
    }
    assert.equal(
      recovered,
      text
        .split(/(?<=\n)/)
        .slice(omission.startLine - 1, omission.endLine)
        .join(""),
    );
  });

  it("takes an intent with POST /v1/project: the view keeps what it names, and its pattern continuation recovers the rest", async () => {
    const text = Array.from({ length: 4000 }, (_, index) =>
      index % 500 === 250 ? `    cache[${String(index)}] = resolve_lookup(key_${String(index)})\n` : `    step_${String(index)} = run(${String(index)})\n`,
    ).join("");
    const body = {
      session_id: "http-intent",
      intent: "Fix the crash in resolve_lookup. Let me read the module.",
      result: { tool_name: "bash", args_json: JSON.stringify({ command: "cat src/lookup.py" }), parts: [{ text }] },
    };
    const first = (await (await post("/v1/project", body)).json()) as ProjectJson;
    const again = (await (await post("/v1/project", body)).json()) as ProjectJson;
    const view = first.parts.map((part) => part.text ?? "").join("");
    assert.equal(again.parts.map((part) => part.text ?? "").join(""), view);
    assert.match(view, /cache\[250\] = resolve_lookup\(key_250\)/);
    const notice = /^\[loupe\] (\d+) more lines mention `resolve_lookup`; recover with (\{.*\})$/m.exec(view);
    assert.ok(notice, view.slice(0, 600));
    const continuation = JSON.parse(notice[2] ?? "{}") as { pattern: string; context_lines: number };
    assert.equal(continuation.pattern, "resolve_lookup");
    const answer = (await (await post("/v1/recover", continuation)).json()) as { matchCount: number; parts: Array<{ text?: string }> };
    assert.equal(answer.matchCount, 8);
    assert.match(answer.parts.map((part) => part.text ?? "").join(""), /resolve_lookup\(key_3750\)/);
  });

  it("answers errors with the gRPC code and the matching HTTP status", async () => {
    const missing = await post("/v1/recover", { result_id: "r_AAAAAAAAAAAAAAAAAAAAAAAA", start_line: 1 });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { code: string }).code, "not_found");
    const bad = await post("/v1/recover", { start_line: 1 });
    assert.equal(bad.status, 400);
    const notJson = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/v1/project`, { method: "POST", body: "{" });
    assert.equal(notJson.status, 400);
    const unknownField = await post("/v1/project", { nonsense: 1 });
    assert.equal(unknownField.status, 400);
  });

  it("reads and sets rules with POST /v1/get-source-limit and /v1/set-source-limit", async () => {
    const set = await post("/v1/set-source-limit", { source: "http-app", limit: { budget_tokens: 900 } });
    assert.equal(set.status, 200);
    const got = (await (await post("/v1/get-source-limit", { source: "http-app" })).json()) as { limit: { budgetTokens: number } };
    assert.equal(got.limit.budgetTokens, 900);
  });

  it("appends turns, compacts and reads history over plain HTTP", async () => {
    const turns = [
      { seq: 1, role: "user", parts: [{ text: "Rename the config loader to loadSettings." }] },
      {
        seq: 2,
        role: "assistant",
        parts: [{ text: "I'll grep for it first." }],
        tool_calls: [{ tool_use_id: "t1", name: "Bash", args_json: '{"command":"grep -rn loadConfig src"}' }],
      },
      {
        seq: 3,
        role: "user",
        tool_results: [{ tool_use_id: "t1", tool_name: "Bash", parts: [{ text: "src/config.ts:4:export function loadConfig()" }], exit_code: 0 }],
      },
    ];
    const appended = await post("/v1/append-turns", { session_id: "http-turns", source: "app", turns, context_window_tokens: 50000 });
    assert.equal(appended.status, 200);
    assert.equal(((await appended.json()) as { accepted: number }).accepted, 3);
    const compacted = (await (
      await post("/v1/compact", { session_id: "http-turns", format: "HISTORY_FORMAT_OPENAI_CHAT", context_limit_tokens: 50000 })
    ).json()) as { path: string; messagesJson: string };
    assert.equal(compacted.path, "COMPACT_PATH_PREPARED");
    const body = JSON.parse(Buffer.from(compacted.messagesJson, "base64").toString("utf8")) as { messages: Array<{ role: string; tool_call_id?: string }> };
    assert.deepEqual(
      body.messages.map((message) => message.role),
      ["user", "assistant", "tool"],
    );
    const found = (await (await post("/v1/search-history", { session_id: "http-turns", query: "loadConfig" })).json()) as { hits: Array<{ address: string }> };
    assert.deepEqual(
      found.hits.map((hit) => hit.address),
      ["turn:2", "turn:3"],
    );
    const missing = await post("/v1/get-note", { session_id: "nobody" });
    assert.equal(missing.status, 404);
  });
});
