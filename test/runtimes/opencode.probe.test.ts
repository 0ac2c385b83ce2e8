import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { callTool, scriptSteps, startScriptedVendor, type ScriptedVendor } from "@loupe/testing";
import { FAILING_COMMAND, FAILING_TEST_FILE, LONG_OUTPUT_COMMAND, longFile } from "./support/probe-fixtures.js";
import { checkHttpMcp } from "./support/probe-http-mcp.js";
import { describeRun, lastScripted, resultsFor, runtimeAvailable } from "./support/probe-run.js";
import { probeMcpServer, readJsonLines } from "./support/probe-tools.js";
import { runOpenCode } from "./support/run-runtime.js";

const WORK_FILES = { "test_numbers.py": FAILING_TEST_FILE, "big.txt": longFile() };

/** A plugin (test data written into the sandbox) that logs both hooks and rewrites or replaces on markers. */
function probePlugin(log: string): string {
  const path = JSON.stringify(log);
  return `import { appendFileSync } from "node:fs";
export const ProbePlugin = async (context) => {
  appendFileSync(${path}, JSON.stringify({ event: "init", keys: Object.keys(context) }) + "\\n");
  return {
    "tool.execute.before": async (input, output) => {
      appendFileSync(${path}, JSON.stringify({ event: "before", input, output }) + "\\n");
      if (String(output.args?.command).includes("original-output")) output.args.command = "echo rewritten-by-before";
    },
    "tool.execute.after": async (input, output) => {
      appendFileSync(${path}, JSON.stringify({ event: "after", input, keys: Object.keys(output) }) + "\\n");
      if (String(output.output).includes("second-output") || input.tool === "read") output.output = "REPLACED-BY-AFTER " + input.tool;
      if (input.tool === "loupe_read_result") output.content = [{ type: "text", text: "REPLACED-MCP-CONTENT" }];
    },
  };
};
`;
}

describe("OpenCode 1.18.33 (probe, without Loupe)", () => {
  let vendor: ScriptedVendor;
  let scratch: string;
  before(async () => {
    vendor = await startScriptedVendor({ script: scriptSteps([]) });
    scratch = await mkdtemp(join(tmpdir(), "loupe-opencode-probe-"));
  });
  after(async () => {
    await vendor.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("speaks Chat Completions through @ai-sdk/openai-compatible, keeps the tail of long bash output and caps reads at 50 KB", async (t) => {
    if (!(await runtimeAvailable(t, "opencode"))) return;
    const run = await runOpenCode(vendor, {
      prompt: "Run the checks.",
      workFiles: WORK_FILES,
      headers: { "x-loupe-source": "opencode-probe", "x-loupe-token": "t-opencode" },
      mcpServers: { loupe: probeMcpServer() },
      onStart: ({ work }) =>
        vendor.setScript(
          scriptSteps([
            callTool("bash", { command: LONG_OUTPUT_COMMAND, description: "Print a long log" }),
            callTool("bash", { command: FAILING_COMMAND, description: "Run the tests" }),
            callTool("read", { filePath: `${work}/big.txt` }),
            callTool("grep", { pattern: "value_0(1|2)00" }),
            callTool("loupe_read_result", { result_id: "r_1", lines: 3000 }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(run.requests.every((entry) => entry.path === "/v1/chat/completions" && entry.headers["authorization"] === "Bearer sk-loupe-test"));
    assert.ok(run.requests.every((entry) => entry.headers["x-loupe-source"] === "opencode-probe"));
    // The title request: no tools, answered with side text and not counted as a step.
    assert.equal(run.requests[0]?.view?.side, true);
    const view = lastScripted(run);
    for (const tool of ["bash", "read", "grep", "glob", "edit", "write", "loupe_read_result"]) assert.ok(view.tools.includes(tool), tool);

    const [long, failing] = resultsFor(run, "bash");
    assert.match(long!.text, /^\.\.\.output truncated\.\.\.\n\nFull output saved to: \S+\/opencode\/tool-output\/tool_\w+\n\n\d{5} INFO/);
    // What it kept ends where its capture of the process output stopped (seen: ~176–192 KiB of 590 KB).
    t.diagnostic(`opencode kept bash output up to: ${long!.text.slice(-60)}`);
    assert.match(failing!.text, /FAILED \(failures=3\)\n$/);
    const [read] = resultsFor(run, "read");
    assert.match(read!.text, /^<path>\S+big\.txt<\/path>\n<type>file<\/type>\n<content>\n1: const value_0001 = /);
    assert.match(read!.text, /\n\n\(Output capped at 50 KB\. Showing lines 1-\d+\. Use offset=\d+ to continue\.\)\n<\/content>$/);
    const grep = resultsFor(run, "grep")[0]!.text;
    t.diagnostic(`opencode grep: ${grep.split("\n")[0] ?? ""}`);
    const [mcp] = resultsFor(run, "loupe_read_result");
    assert.match(mcp!.text, /^mcp line 00001 /);
    assert.match(mcp!.text, /\n\n\.\.\.\d+ bytes truncated\.\.\.\n\nThe tool call succeeded but the output was truncated\. Full output saved to: \S+\n/);
  });

  it("plugins: tool.execute.before may change args; tool.execute.after may replace output (MCP: its content)", async (t) => {
    if (!(await runtimeAvailable(t, "opencode"))) return;
    const log = join(scratch, "plugin.jsonl");
    const run = await runOpenCode(vendor, {
      prompt: "Run the checks.",
      workFiles: WORK_FILES,
      mcpServers: { loupe: probeMcpServer() },
      plugins: { "probe.ts": probePlugin(log) },
      onStart: ({ work }) =>
        vendor.setScript(
          scriptSteps([
            callTool("bash", { command: "echo original-output", description: "a" }),
            callTool("bash", { command: "echo second-output", description: "b" }),
            callTool("read", { filePath: `${work}/big.txt`, offset: 10, limit: 3 }),
            callTool("loupe_read_result", { result_id: "r_1", lines: 3 }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    const bash = resultsFor(run, "bash").map((result) => result.text);
    assert.deepEqual(bash, ["rewritten-by-before\n", "REPLACED-BY-AFTER bash"]);
    assert.equal(resultsFor(run, "read")[0]?.text, "REPLACED-BY-AFTER read");
    assert.equal(resultsFor(run, "loupe_read_result")[0]?.text, "REPLACED-MCP-CONTENT");

    const events = await readJsonLines(log);
    const contextKeys = events[0]?.["keys"] as string[];
    for (const key of ["client", "project", "worktree", "directory", "serverUrl", "$"]) assert.ok(contextKeys.includes(key), key);
    const before = events.find((entry) => entry["event"] === "before");
    assert.deepEqual(before?.["output"], { args: { command: "echo original-output", description: "a" } });
    assert.deepEqual(Object.keys(before?.["input"] as object).sort(), ["callID", "sessionID", "tool"]);
    const mcpAfter = events.find((entry) => entry["event"] === "after" && (entry["input"] as { tool: string }).tool === "loupe_read_result");
    assert.ok((mcpAfter?.["keys"] as string[]).includes("content"));
  });

  it("reaches a streamable HTTP MCP server, sending its configured headers", async (t) => {
    if (!(await runtimeAvailable(t, "opencode"))) return;
    await checkHttpMcp(t, "opencode", vendor, [callTool("loupe_read_result", { result_id: "r_http", lines: 2 })]);
  });
});
