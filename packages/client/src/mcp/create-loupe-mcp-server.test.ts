import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import {
  PutNoteResponseSchema,
  RequestHandoverResponseSchema,
  GetSourceLimitResponseSchema,
  ReadHistoryResponseSchema,
  RecoverResponseSchema,
  SearchHistoryResponseSchema,
  SetSourceLimitResponseSchema,
  type RecoverRequestSchema,
  type SetSourceLimitRequestSchema,
} from "@loupe/proto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createLoupeMcpServer } from "./create-loupe-mcp-server.js";
import { ADMIN_REQUIRED_MESSAGE } from "./limit-tools.js";
import type { LoupeMcpApi } from "./loupe-mcp-api.js";

const RESULT_ID = "r_abcdefghijklmnop0123";

interface Calls {
  recover: MessageInitShape<typeof RecoverRequestSchema>[];
  searchResult: MessageInitShape<typeof RecoverRequestSchema>[];
  setSourceLimit: MessageInitShape<typeof SetSourceLimitRequestSchema>[];
  other: string[];
}

function fakeApi(calls: Calls): LoupeMcpApi {
  return {
    recover: async (request) => {
      calls.recover.push(request);
      if (request.resultId === "r_missing_000000000000") throw new AppError("not_found", "result not found [result_id=r_missing_000000000000]");
      if (request.resultId === "r_broken_0000000000000") throw new TypeError("cannot read properties of undefined (secret internals)");
      return create(RecoverResponseSchema, {
        resultId: RESULT_ID,
        parts: [{ content: { case: "text", value: "line 101\nline 102\n" } }],
        startLine: 101,
        endLine: 102,
        startByte: 900,
        endByte: 918,
        totalLines: 300,
        totalBytes: 3000,
        nextCursor: "CURSOR1",
      });
    },
    searchResult: async (request) => {
      calls.searchResult.push(request);
      return create(RecoverResponseSchema, {
        resultId: RESULT_ID,
        parts: [{ content: { case: "text", value: "41:ERROR disk full\n" } }],
        matches: [{ line: 41, text: "ERROR disk full" }],
        matchCount: 3,
        totalLines: 300,
        nextCursor: "PCURSOR",
      });
    },
    readHistory: async (request) => {
      calls.other.push(`readHistory ${request.sessionId ?? ""} ${request.address ?? ""}`);
      return create(ReadHistoryResponseSchema, { text: "user: fix the parser", startSeq: 1, endSeq: 1 });
    },
    searchHistory: async (request) => {
      calls.other.push(`searchHistory ${request.query ?? ""} ${String(request.limit ?? 0)}`);
      return create(SearchHistoryResponseSchema, { hits: [{ seq: 3, address: "turn:3", snippet: "TypeError in parser.ts" }], matchCount: 2 });
    },
    setSourceLimit: async (request) => {
      calls.setSourceLimit.push(request);
      return create(SetSourceLimitResponseSchema, { limit: { ...request.limit, version: 2 } });
    },
    getSourceLimit: async () => create(GetSourceLimitResponseSchema, { limit: { keepLimitChars: 9000, version: 2 } }),
    putNote: async (request) => {
      calls.other.push(`putNote ${request.sessionId ?? ""} ${String(request.coveredThroughSeq)}`);
      return create(PutNoteResponseSchema, {
        note: { text: request.text ?? "", coveredThroughSeq: request.coveredThroughSeq ?? 0, version: 3, author: "model" },
      });
    },
    requestHandover: async (request) => {
      calls.other.push(`requestHandover ${request.sessionId ?? ""} ${request.reason ?? ""}`);
      return create(RequestHandoverResponseSchema, { compactionReason: `requested: ${request.reason ?? ""}` });
    },
  };
}

type ToolAnswer = Awaited<ReturnType<Client["callTool"]>>;
const texts = (answer: ToolAnswer): string[] => (answer.content as { type: string; text?: string }[]).map((block) => block.text ?? `<${block.type}>`);

async function connect(
  admin: boolean,
  onError?: (error: unknown, tool: string) => void,
  sessionId?: string,
): Promise<{ client: Client; calls: Calls; close: () => Promise<void> }> {
  const calls: Calls = { recover: [], searchResult: [], setSourceLimit: [], other: [] };
  const server = createLoupeMcpServer(fakeApi(calls), { admin, ...(onError ? { onError } : {}), ...(sessionId === undefined ? {} : { sessionId }) });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0.0.0" });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    calls,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe("createLoupeMcpServer", () => {
  let session: Awaited<ReturnType<typeof connect>>;
  const errors: { error: unknown; tool: string }[] = [];
  before(async () => {
    session = await connect(false, (error, tool) => errors.push({ error, tool }));
  });
  after(() => session.close());

  it("lists its tools with input schemas and announces instructions", async () => {
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      "get_app_limit",
      "put_note",
      "read_history",
      "read_result",
      "request_handover",
      "search_history",
      "search_result",
      "set_app_limit",
    ]);
    const read = tools.find((tool) => tool.name === "read_result");
    assert.deepEqual(read?.inputSchema.required, ["result_id"]);
    assert.ok(Object.keys(read?.inputSchema.properties ?? {}).includes("start_line"));
    assert.equal(read?.annotations?.readOnlyHint, true);
    assert.match(session.client.getInstructions() ?? "", /read_result/);
  });

  it("read_result sends the range and answers header, exact text and the next call", async () => {
    const answer = await session.client.callTool({
      name: "read_result",
      arguments: { result_id: RESULT_ID, start_line: 101, end_line: 250, budget_tokens: 500 },
    });
    assert.equal(answer.isError, undefined);
    assert.deepEqual(session.calls.recover.at(-1), { resultId: RESULT_ID, startLine: 101, endLine: 250, budgetTokens: 500 });
    assert.deepEqual(texts(answer), [
      `[result ${RESULT_ID}, lines 101–102 of 300, bytes 900–918 of 3000]`,
      "line 101\nline 102\n",
      `next: call read_result (tool of the "loupe" MCP server, e.g. mcp__loupe__read_result) with {"result_id":"${RESULT_ID}","cursor":"CURSOR1","budget_tokens":500}`,
    ]);
  });

  it("search_result sends the pattern, or only the cursor when continuing", async () => {
    const first = await session.client.callTool({ name: "search_result", arguments: { result_id: RESULT_ID, pattern: "ERROR", context_lines: 2 } });
    assert.deepEqual(session.calls.searchResult.at(-1), { resultId: RESULT_ID, pattern: "ERROR", contextLines: 2 });
    assert.deepEqual(texts(first), [
      `[result ${RESULT_ID} (300 lines), pattern "ERROR": matches 3–3]`,
      "41:ERROR disk full\n",
      `next: call search_result (tool of the "loupe" MCP server, e.g. mcp__loupe__search_result) with {"result_id":"${RESULT_ID}","pattern":"ERROR","cursor":"PCURSOR"}`,
    ]);
    await session.client.callTool({ name: "search_result", arguments: { result_id: RESULT_ID, pattern: "ERROR", cursor: "PCURSOR" } });
    assert.deepEqual(session.calls.searchResult.at(-1), { resultId: RESULT_ID, cursor: "PCURSOR" });
  });

  it("read_history and search_history answer addresses and the call that reads a turn", async () => {
    const read = await session.client.callTool({ name: "read_history", arguments: { session_id: "s1", address: "turn:1" } });
    assert.deepEqual(texts(read), ["[session s1: turn:1]", "user: fix the parser"]);
    const found = await session.client.callTool({ name: "search_history", arguments: { session_id: "s1", query: "parser", limit: 1 } });
    assert.deepEqual(texts(found), [
      '[session s1: 2 turn(s) match "parser"; showing 1]',
      "turn:3: TypeError in parser.ts",
      'read a turn: call read_history (tool of the "loupe" MCP server, e.g. mcp__loupe__read_history) with {"session_id":"s1","address":"turn:3"}',
    ]);
    assert.deepEqual(session.calls.other, ["readHistory s1 turn:1", "searchHistory parser 1"]);
  });

  it("without a session of its own, asks for session_id", async () => {
    const read = await session.client.callTool({ name: "read_history", arguments: { address: "turn:1" } });
    assert.equal(read.isError, true);
    assert.match(texts(read)[0] ?? "", /^invalid_argument: session_id is required/);
  });

  it("refuses set_app_limit without the admin permission, and never calls Loupe", async () => {
    const answer = await session.client.callTool({ name: "set_app_limit", arguments: { source: "app", keep_limit_chars: 1 } });
    assert.equal(answer.isError, true);
    assert.deepEqual(texts(answer), [ADMIN_REQUIRED_MESSAGE]);
    assert.equal(session.calls.setSourceLimit.length, 0);
    const shown = await session.client.callTool({ name: "get_app_limit", arguments: { source: "app" } });
    assert.deepEqual(texts(shown), ['app "app" rule: {"keep_limit_chars":9000,"version":2}']);
  });

  it("answers a Loupe error as code: message, and hides other errors' text", async () => {
    const missing = await session.client.callTool({ name: "read_result", arguments: { result_id: "r_missing_000000000000" } });
    assert.equal(missing.isError, true);
    assert.deepEqual(texts(missing), ["not_found: result not found [result_id=r_missing_000000000000]"]);
    const broken = await session.client.callTool({ name: "read_result", arguments: { result_id: "r_broken_0000000000000" } });
    assert.deepEqual(texts(broken), ["internal: internal error"]);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.tool, "read_result");
  });

  it("answers invalid arguments with the SDK's validation error and keeps serving", async () => {
    const bad = await session.client.callTool({ name: "read_result", arguments: { result_id: RESULT_ID, start_line: 0 } });
    assert.equal(bad.isError, true);
    assert.match(texts(bad)[0] ?? "", /validation/i);
    const missing = await session.client.callTool({ name: "search_result", arguments: { result_id: RESULT_ID } });
    assert.equal(missing.isError, true);
    const fine = await session.client.callTool({ name: "read_result", arguments: { result_id: RESULT_ID } });
    assert.equal(fine.isError, undefined);
  });
});

describe("createLoupeMcpServer: the model's own handover", () => {
  it("put_note and request_handover reach Loupe for the server's session, or a named one", async () => {
    const session = await connect(false, undefined, "s-own");
    try {
      const put = await session.client.callTool({ name: "put_note", arguments: { text: "## Objective\nfix the parser", covered_through_seq: 12 } });
      assert.deepEqual(texts(put), ["[session s-own: note version 3 stands for turns 1–12]"]);
      const asked = await session.client.callTool({ name: "request_handover", arguments: { session_id: "other", reason: "finished the investigation" } });
      assert.deepEqual(texts(asked), ['[session other: handover requested; the runtime sees compaction_due, "requested: finished the investigation"]']);
      assert.deepEqual(session.calls.other, ["putNote s-own 12", "requestHandover other finished the investigation"]);
    } finally {
      await session.close();
    }
  });
});

describe("createLoupeMcpServer started for a session", () => {
  it("reads and searches that session when a call names none, and a named one otherwise", async () => {
    const session = await connect(false, undefined, "s-started");
    try {
      const read = await session.client.callTool({ name: "read_history", arguments: { address: "turn:1" } });
      assert.equal(texts(read)[0], "[session s-started: turn:1]");
      await session.client.callTool({ name: "read_history", arguments: { session_id: "other", address: "turn:1" } });
      assert.deepEqual(session.calls.other, ["readHistory s-started turn:1", "readHistory other turn:1"]);
    } finally {
      await session.close();
    }
  });
});

describe("createLoupeMcpServer with admin", () => {
  it("sends set_app_limit as a partial update and answers the stored rule", async () => {
    const session = await connect(true);
    try {
      const answer = await session.client.callTool({
        name: "set_app_limit",
        arguments: { source: "app", keep_limit_chars: 9000, keep_tools: ["bash"], mode: "cut" },
      });
      assert.equal(answer.isError, undefined);
      assert.deepEqual(session.calls.setSourceLimit, [{ source: "app", limit: { keepLimitChars: 9000, keepTools: { values: ["bash"] }, mode: "cut" } }]);
      assert.deepEqual(texts(answer), ['app "app" rule: {"keep_limit_chars":9000,"keep_tools":{"values":["bash"]},"mode":"cut","version":2}']);
    } finally {
      await session.close();
    }
  });
});
