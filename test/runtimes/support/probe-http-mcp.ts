import assert from "node:assert/strict";
import type { TestContext } from "node:test";
import { scriptSteps, type ModelAction, type ScriptedVendor } from "@loupe/testing";
import { startProbeMcpHttpServer } from "./mcp-http-server.js";
import { describeRun, lastScripted } from "./probe-run.js";
import { runRuntime } from "./run-runtime.js";
import type { RuntimeName } from "./runtimes.js";

/**
 * Runs `runtime` with the probe MCP server reached over streamable HTTP (`mcpServers.loupe.url`,
 * with an `x-loupe-token` header) on a script whose last step calls its tool with
 * `{ result_id: "r_http", lines: 2 }`, and checks the result came back and every MCP request
 * carried the header.
 */
export async function checkHttpMcp(t: TestContext, runtime: RuntimeName, vendor: ScriptedVendor, steps: ModelAction[]): Promise<void> {
  const mcp = await startProbeMcpHttpServer();
  try {
    vendor.setScript(scriptSteps(steps));
    const run = await runRuntime(runtime, vendor, {
      prompt: "Read the saved result.",
      mcpServers: { loupe: { url: mcp.url, headers: { "x-loupe-token": "t-mcp" } } },
    });
    t.diagnostic(`${describeRun(run)}; MCP requests: ${mcp.requests.map((request) => request.method).join(" ")}`);
    assert.equal(run.exitCode, 0, run.stderr);
    const last = lastScripted(run).lastResults[0];
    assert.match(last?.text ?? "", /mcp line 00001 of result r_http: /);
    assert.ok(mcp.requests.length > 0 && mcp.requests.every((request) => request.headers["x-loupe-token"] === "t-mcp"));
  } finally {
    await mcp.close();
  }
}
