import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { HistoryFormat } from "@loupe/proto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { agentSession } from "../support/agent-session.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { linesOf } from "../support/recover-omission.js";

const REPO_ROOT = new URL("../../", import.meta.url).pathname;
const ADMIN_TOKEN = randomBytes(24).toString("base64url");
const SESSION = "mcp-e2e";
const TOOLS = ["get_app_limit", "ledger", "put_note", "read_history", "read_result", "request_handover", "search_history", "search_result", "set_app_limit"];

/** A tool answer split the way Loupe's MCP server writes it: header, body blocks, and the next: call if any. */
interface Answer {
  isError: boolean;
  blocks: string[];
  next: Record<string, unknown> | undefined;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  const blocks = (result.content as { type: string; text?: string }[]).map((block) => block.text ?? "");
  const last = blocks.at(-1) ?? "";
  // The line names the tool so a model finds it whatever prefix its runtime adds.
  const prefix = `next: call ${name} (tool of the "loupe" MCP server, e.g. mcp__loupe__${name}) with `;
  const next = last.startsWith(prefix) ? (JSON.parse(last.slice(prefix.length)) as Record<string, unknown>) : undefined;
  return { isError: result.isError === true, blocks, next };
}

/** Reads a whole range through read_result, following each next: call exactly as given. */
async function readAll(client: Client, args: Record<string, unknown>): Promise<{ text: string; pages: number }> {
  let answer = await call(client, "read_result", args);
  let text = "";
  let pages = 1;
  for (;;) {
    assert.equal(answer.isError, false, answer.blocks.join("\n"));
    assert.match(answer.blocks[0] ?? "", /^\[result r_/);
    text += answer.blocks.slice(1, answer.next ? -1 : undefined).join("");
    if (!answer.next) return { text, pages };
    answer = await call(client, "read_result", answer.next);
    pages++;
  }
}

async function stdioClient(grpcPort: number, env: Record<string, string> = {}): Promise<Client> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  delete inherited["LOUPE_MCP_ADMIN"];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--conditions=source", "--import", "tsx", "services/loupe/src/main.ts", "mcp"],
    cwd: REPO_ROOT,
    env: { ...inherited, LOUPE_ADDR: `127.0.0.1:${String(grpcPort)}`, ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "mcp-e2e", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

async function httpClient(httpPort: number, token?: string): Promise<Client> {
  const url = new URL(`http://127.0.0.1:${String(httpPort)}/mcp`);
  const transport = new StreamableHTTPClientTransport(url, token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "mcp-e2e-http", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

describe("MCP server against embedded Loupe", () => {
  let loupe: EmbeddedLoupe;
  let sdk: LoupeClient;
  let resultId: string;
  let omission: { continuation: Record<string, unknown>; startLine: number; endLine: number };
  const original = numberedLines(3000, "mcp");

  before(async () => {
    loupe = await startEmbeddedLoupe({ LOUPE_ADMIN_TOKEN: ADMIN_TOKEN });
    sdk = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}` });
    const projected = await sdk.project({
      sessionId: SESSION,
      source: "mcp-app",
      result: { toolUseId: "toolu_1", toolName: "bash", parts: [{ content: { case: "text", value: original } }] },
    });
    assert.ok(projected.archived && projected.resultId !== "");
    resultId = projected.resultId;
    const longest = [...projected.omissions].sort((a, b) => (b.endLine ?? 0) - (b.startLine ?? 0) - ((a.endLine ?? 0) - (a.startLine ?? 0)))[0];
    assert.ok(longest?.startLine !== undefined && longest.endLine !== undefined, "a 3,000-line text is cut");
    omission = { continuation: JSON.parse(longest.continuationJson) as Record<string, unknown>, startLine: longest.startLine, endLine: longest.endLine };
    await sdk.appendTurns({
      sessionId: SESSION,
      source: "mcp-app",
      systemPrompt: "You are a coding agent.",
      turns: agentSession(6),
      contextWindowTokens: 100_000,
    });
  });
  after(async () => {
    sdk.close();
    await loupe.stop();
  });

  describe("stdio (loupe mcp)", () => {
    let client: Client;
    before(async () => {
      client = await stdioClient(loupe.grpcPort);
    });
    after(() => client.close());

    it("lists the tools", async () => {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
    });

    it("read_result of an omission's continuation, followed page by page, gives back exactly the omitted lines", async () => {
      const { text, pages } = await readAll(client, { ...omission.continuation, budget_tokens: 4000 });
      assert.equal(text, linesOf(original, omission.startLine, omission.endLine));
      assert.ok(pages > 1, "a small budget splits the range into pages");
    });

    it("search_result finds a line", async () => {
      const answer = await call(client, "search_result", { result_id: resultId, pattern: "mcp 01234:", context_lines: 1 });
      assert.equal(answer.isError, false);
      assert.match(answer.blocks[0] ?? "", /matches 1–1\]$/);
      assert.equal(
        answer.blocks[1],
        "1233-mcp 01233: the quick brown fox jumps over the lazy dog\n1234:mcp 01234: the quick brown fox jumps over the lazy dog\n1235-mcp 01235: the quick brown fox jumps over the lazy dog\n",
      );
    });

    it("read_history reads turn:1 and search_history finds a turn", async () => {
      const read = await call(client, "read_history", { session_id: SESSION, address: "turn:1" });
      assert.equal(read.isError, false);
      assert.equal(read.blocks[0], `[session ${SESSION}: turn:1]`);
      assert.match(read.blocks[1] ?? "", /Fix the failing parser test/);
      const found = await call(client, "search_history", { session_id: SESSION, query: "TypeError" });
      assert.equal(found.isError, false);
      assert.match(found.blocks[1] ?? "", /^turn:\d+: .*TypeError/m);
    });

    it("started for a session (LOUPE_SESSION_ID), reads it without session_id", async () => {
      const own = await stdioClient(loupe.grpcPort, { LOUPE_SESSION_ID: SESSION });
      try {
        const read = await call(own, "read_history", { address: "turn:1" });
        assert.equal(read.blocks[0], `[session ${SESSION}: turn:1]`);
      } finally {
        await own.close();
      }
    });

    it("a model asks for a handover: the next AppendTurns reports compaction_due with its reason, until a Compact", async () => {
      const calm = await sdk.appendTurns({ sessionId: SESSION, turns: [{ seq: 14, role: "user", parts: [{ content: { case: "text", value: "carry on" } }] }] });
      assert.equal(calm.compactionDue, false);
      assert.equal(calm.compactionReason, "");
      const asked = await call(client, "request_handover", { session_id: SESSION, reason: "finished the investigation" });
      assert.equal(asked.isError, false, asked.blocks.join("\n"));
      const due = await sdk.appendTurns({ sessionId: SESSION, turns: [{ seq: 15, role: "assistant", parts: [{ content: { case: "text", value: "done" } }] }] });
      assert.equal(due.compactionDue, true);
      assert.equal(due.compactionReason, "requested: finished the investigation");
      const note = await call(client, "put_note", {
        session_id: SESSION,
        text: "## Objective\nFix the parser test.\n## Next steps\nRun npm test.",
        covered_through_seq: 15,
      });
      assert.equal(note.isError, false, note.blocks.join("\n"));
      assert.equal((await sdk.getNote({ sessionId: SESSION })).note?.author, "model");
      await sdk.compact({ sessionId: SESSION, format: HistoryFormat.ANTHROPIC, contextLimitTokens: 100_000, reserveTokens: 1000 });
      const after = await sdk.appendTurns({ sessionId: SESSION, turns: [{ seq: 16, role: "user", parts: [{ content: { case: "text", value: "next" } }] }] });
      assert.equal(after.compactionDue, false, "the requested handover is done");
    });

    it("answers a Loupe error as a tool error and keeps serving", async () => {
      const missing = await call(client, "read_history", { session_id: "no-such-session", address: "turn:1" });
      assert.equal(missing.isError, true);
      assert.match(missing.blocks[0] ?? "", /^not_found: /);
      assert.equal((await call(client, "get_app_limit", { source: "mcp-app" })).isError, false);
    });

    it("refuses set_app_limit without LOUPE_MCP_ADMIN, and applies it with LOUPE_MCP_ADMIN=1", async () => {
      const refused = await call(client, "set_app_limit", { source: "mcp-app", keep_limit_chars: 9000 });
      assert.equal(refused.isError, true);
      assert.match(refused.blocks[0] ?? "", /^permission_denied: .*admin/);
      assert.doesNotMatch((await call(client, "get_app_limit", { source: "mcp-app" })).blocks[0] ?? "", /9000/);
      const admin = await stdioClient(loupe.grpcPort, { LOUPE_MCP_ADMIN: "1" });
      try {
        const applied = await call(admin, "set_app_limit", { source: "mcp-app", keep_limit_chars: 9000, keep_head_chars: 2000, keep_tail_chars: 2000 });
        assert.equal(applied.isError, false, applied.blocks.join("\n"));
        const shown = await call(admin, "get_app_limit", { source: "mcp-app" });
        assert.match(shown.blocks[0] ?? "", /"keep_limit_chars":9000/);
        assert.match(shown.blocks[0] ?? "", /"keep_head_chars":2000/);
      } finally {
        await admin.close();
      }
    });
  });

  describe("streamable HTTP (/mcp on the gateway's HTTP port)", () => {
    it("serves read_result and search_history without a token", async () => {
      const client = await httpClient(loupe.httpPort);
      try {
        assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name).sort(), TOOLS);
        const { text } = await readAll(client, { result_id: resultId, start_line: 10, end_line: 20 });
        assert.equal(text, linesOf(original, 10, 20));
        const found = await call(client, "search_history", { session_id: SESSION, query: "parser" });
        assert.equal(found.isError, false);
      } finally {
        await client.close();
      }
    });

    it("refuses set_app_limit without the admin bearer token or with a wrong one, and applies it with the token", async () => {
      for (const token of [undefined, "wrong-token-0123456789"]) {
        const client = await httpClient(loupe.httpPort, token);
        try {
          const refused = await call(client, "set_app_limit", { source: "mcp-http", mode: "project" });
          assert.equal(refused.isError, true);
          assert.match(refused.blocks[0] ?? "", /^permission_denied: /);
        } finally {
          await client.close();
        }
      }
      const admin = await httpClient(loupe.httpPort, ADMIN_TOKEN);
      try {
        const applied = await call(admin, "set_app_limit", { source: "mcp-http", mode: "project", budget_tokens: 1500 });
        assert.equal(applied.isError, false, applied.blocks.join("\n"));
        assert.match((await call(admin, "get_app_limit", { source: "mcp-http" })).blocks[0] ?? "", /"mode":"project".*"budget_tokens":1500/);
      } finally {
        await admin.close();
      }
    });

    it("answers GET and DELETE with 405 (stateless: POST only)", async () => {
      for (const method of ["GET", "DELETE"]) {
        const response = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/mcp`, { method, headers: { accept: "text/event-stream" } });
        assert.equal(response.status, 405);
        assert.equal(response.headers.get("allow"), "POST");
      }
    });
  });
});
