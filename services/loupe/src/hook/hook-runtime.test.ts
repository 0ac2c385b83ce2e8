import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createLoupeMcpServer, type LoupeMcpApi } from "@loupe/client/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { isLoupeMcpTool, LOUPE_MCP_TOOLS, replaceOutputAnswer } from "./hook-runtime.js";

describe("isLoupeMcpTool()", () => {
  it("knows Loupe's MCP tools by every runtime's name for them", () => {
    for (const name of ["read_result", "mcp__loupe__read_result", "mcp_loupe_search_result", "loupe_read_history", "mcp__ctx__search_history"])
      assert.equal(isLoupeMcpTool(name), true, name);
    for (const name of ["Read", "mcp__tracker__search", "bash", "mcp__loupe__read_results", "unread_result"]) assert.equal(isLoupeMcpTool(name), false, name);
  });

  it("lists exactly the tools Loupe's MCP server offers", async () => {
    const unused = async (): Promise<never> => {
      throw new Error("not called");
    };
    const api: LoupeMcpApi = {
      recover: unused,
      searchResult: unused,
      readHistory: unused,
      searchHistory: unused,
      putNote: unused,
      requestHandover: unused,
      getSourceLimit: unused,
      setSourceLimit: unused,
    };
    const server = createLoupeMcpServer(api, { admin: false });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "hook-test", version: "0.0.0" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const { tools } = await client.listTools();
    await client.close();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...LOUPE_MCP_TOOLS].sort());
  });
});

describe("replaceOutputAnswer()", () => {
  it("gives Claude Code the context beside the output, and the others only the output", () => {
    assert.deepEqual(replaceOutputAnswer("claude-code", "PostToolUse", { x: 1 }, "v", false, "note"), {
      hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: { x: 1 }, additionalContext: "note" },
    });
    assert.deepEqual(replaceOutputAnswer("codex", "PostToolUse", "v", "v", false), { decision: "block", reason: "v" });
  });
});
