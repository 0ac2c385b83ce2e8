// The ledger: what Loupe did to a tenant's context, read over gRPC, REST and MCP, each entry with the
// handle that restores what it took out — against embedded Loupe (the ledger on files under the data dir).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import { HistoryFormat, LedgerEntryKind, RecoverRequestSchema } from "@loupe/proto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";

const SESSION = "ledger-session";

describe("ledger (LedgerService, REST, MCP) against embedded Loupe", () => {
  let loupe: EmbeddedLoupe;
  let client: LoupeClient;
  let longResultId = "";
  const longText = numberedLines(4000);

  before(async () => {
    loupe = await startEmbeddedLoupe();
    client = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}`, retries: 0 });
    const long = await client.project({
      sessionId: SESSION,
      source: "ledger-app",
      result: { toolName: "bash", argsJson: '{"command":"make"}', parts: [{ content: { case: "text", value: longText } }] },
    });
    longResultId = long.resultId;
    await client.project({ sessionId: SESSION, source: "ledger-app", result: { toolName: "bash", parts: [{ content: { case: "text", value: "ok\n" } }] } });
    await client.recover({ resultId: longResultId, startLine: 10, endLine: 20 });
    await client.setSourceLimit({ source: "ledger-cut", limit: { keepLimitChars: 8000 } });
    const history = JSON.stringify({
      model: "claude",
      messages: [
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "make" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: numberedLines(1000) }] },
      ],
    });
    await client.cutHistory({ source: "ledger-cut", format: HistoryFormat.ANTHROPIC, historyJson: new TextEncoder().encode(history) });
    await client.project({
      sessionId: "doomed",
      source: "ledger-app",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: numberedLines(3000) } }] },
    });
    await client.deleteResults({ target: { case: "sessionId", value: "doomed" } });
  });
  after(async () => {
    client.close();
    await loupe.stop();
  });

  /** The ledger is written in the background: wait until it holds `count` entries. */
  const settled = async (count: number) => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const page = await client.listLedgerEntries({ limit: 100 });
      if (page.entries.length >= count) return page;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail("the ledger did not fill");
  };

  it("records every projection, recovery, cut and deletion, newest first, with rule and projector versions", async () => {
    const page = await settled(6);
    assert.deepEqual(
      page.entries.map((entry) => entry.kind),
      [
        LedgerEntryKind.DELETION,
        LedgerEntryKind.PROJECTION,
        LedgerEntryKind.CUT,
        LedgerEntryKind.RECOVERY,
        LedgerEntryKind.PROJECTION,
        LedgerEntryKind.PROJECTION,
      ],
    );
    const first = page.entries.at(-1);
    assert.ok(first);
    assert.equal(first.sessionId, SESSION);
    assert.equal(first.source, "ledger-app");
    assert.equal(first.resultId, longResultId);
    assert.match(first.projectorVersion, /^loupe-projection\/\d+\.\d+\.\d+$/);
    assert.equal(first.ruleVersion, "0");
    assert.ok(first.tokensBefore > 10_000 && first.tokensAfter < 2000, `${String(first.tokensBefore)} → ${String(first.tokensAfter)}`);
    assert.match(first.detail, /^bash \(command\): \d+ omissions?$/);
    assert.ok(first.time !== undefined);
    const cut = page.entries[2];
    assert.equal(cut?.source, "ledger-cut");
    assert.ok((cut?.tokensBefore ?? 0) > (cut?.tokensAfter ?? 0));
    assert.equal(cut?.ruleVersion, "1");
    assert.match(page.entries[0]?.detail ?? "", /a session's results: 1 result\(s\) deleted/);
  });

  it("hands back a Recover request that restores what a projection left out", async () => {
    const page = await client.listLedgerEntries({ sessionId: SESSION, kinds: [LedgerEntryKind.PROJECTION], limit: 1, cursor: "" });
    // Newest first: the small result is first; its handle is empty (nothing was saved or left out).
    assert.equal(page.entries[0]?.handleJson, "");
    const older = await client.listLedgerEntries({ sessionId: SESSION, kinds: [LedgerEntryKind.PROJECTION], limit: 1, cursor: page.nextCursor });
    const handle = older.entries[0]?.handleJson ?? "";
    assert.equal(older.nextCursor, "", "two projections in the session");
    const restored = await client.recoverAll(fromJson(RecoverRequestSchema, JSON.parse(handle) as JsonValue));
    assert.equal(restored, longText);
  });

  it("filters by session, source and time, refuses bad queries by name, and keeps tenants apart (REST)", async () => {
    const base = `http://127.0.0.1:${String(loupe.httpPort)}/api/teams`;
    const rest = (await (await fetch(`${base}/local/ledger?session_id=${SESSION}&limit=10`)).json()) as {
      entries: Record<string, unknown>[];
      next_cursor: string;
    };
    assert.deepEqual(
      rest.entries.map((entry) => entry["kind"]),
      ["projection", "projection"],
    );
    assert.deepEqual(Object.keys(rest.entries[1] ?? {}).sort(), [
      "detail",
      "handle_json",
      "kind",
      "projector_version",
      "result_id",
      "rule_version",
      "session_id",
      "source",
      "time",
      "tokens_after",
      "tokens_before",
    ]);
    assert.equal(rest.entries[1]?.["result_id"], longResultId);
    assert.equal(rest.next_cursor, "");
    const cuts = (await (await fetch(`${base}/local/ledger?source=ledger-cut`)).json()) as { entries: { kind: string }[] };
    assert.deepEqual(
      cuts.entries.map((entry) => entry.kind),
      ["cut"],
    );
    const future = (await (await fetch(`${base}/local/ledger?since=${new Date(Date.now() + 60_000).toISOString()}`)).json()) as { entries: unknown[] };
    assert.deepEqual(future.entries, []);
    const bad = await fetch(`${base}/local/ledger?kinds=projection,nonsense`);
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /unknown ledger kind \[kind=nonsense/);
    assert.equal((await fetch(`${base}/another-team/ledger`)).status, 404);
    await assert.rejects(client.listLedgerEntries({ limit: 501 }), (error) => isAppError(error) && error.code === "invalid_argument");
    await assert.rejects(client.listLedgerEntries({ cursor: "forged" }), (error) => isAppError(error) && error.code === "invalid_argument");
  });

  it("lets a model ask what was cut from its context, and restore it, through the MCP tool", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${String(loupe.httpPort)}/mcp`));
    const mcp = new Client({ name: "ledger-e2e", version: "0.0.0" });
    await mcp.connect(transport);
    try {
      const result = await mcp.callTool({ name: "ledger", arguments: { session_id: SESSION, kinds: ["projection"] } });
      const text = (result.content as { text?: string }[]).map((block) => block.text ?? "").join("\n");
      assert.equal(result.isError === true, false, text);
      assert.match(text, /^\[ledger of session ledger-session: 2 entries, newest first\]/);
      const restore = new RegExp(
        `restore with read_result \\(tool of the "loupe" MCP server, e\\.g\\. mcp__loupe__read_result\\) (\\{"result_id":"${longResultId}"\\})`,
      );
      const handle = restore.exec(text)?.[1];
      assert.ok(handle, text);
      const read = await mcp.callTool({ name: "read_result", arguments: { ...(JSON.parse(handle) as object), start_line: 2000, end_line: 2001 } });
      assert.match((read.content as { text?: string }[]).map((block) => block.text ?? "").join(""), /2000/);
    } finally {
      await mcp.close();
    }
  });
});
