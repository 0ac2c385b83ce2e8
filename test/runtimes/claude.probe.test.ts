import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { callTool, scriptSteps, startScriptedVendor, type ScriptedVendor } from "@loupe/testing";
import { FAILING_COMMAND, FAILING_TEST_FILE, LONG_OUTPUT_COMMAND, longFile } from "./support/probe-fixtures.js";
import { checkHttpMcp } from "./support/probe-http-mcp.js";
import { describeRun, lastScripted, resultsFor, runtimeAvailable } from "./support/probe-run.js";
import { hookCommand, probeMcpServer, readJsonLines } from "./support/probe-tools.js";
import { runClaudeCode } from "./support/run-runtime.js";

const WORK_FILES = { "test_numbers.py": FAILING_TEST_FILE, "big.txt": longFile() };

describe("Claude Code 2.1.328 (probe, without Loupe)", () => {
  let vendor: ScriptedVendor;
  let scratch: string;
  before(async () => {
    vendor = await startScriptedVendor({ script: scriptSteps([]) });
    scratch = await mkdtemp(join(tmpdir(), "loupe-claude-probe-"));
  });
  after(async () => {
    await vendor.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("truncates long Bash output itself, marks failures, numbers Read lines and names MCP tools mcp__<server>__<tool>", async (t) => {
    if (!(await runtimeAvailable(t, "claude"))) return;
    const run = await runClaudeCode(vendor, {
      prompt: "Run the checks.",
      workFiles: WORK_FILES,
      headers: { "x-loupe-source": "claude-probe", "x-loupe-token": "t-claude" },
      mcpServers: { loupe: probeMcpServer() },
      onStart: ({ work }) =>
        vendor.setScript(
          scriptSteps([
            callTool("Bash", { command: LONG_OUTPUT_COMMAND, description: "Print a long log" }),
            callTool("Bash", { command: FAILING_COMMAND, description: "Run the tests" }),
            callTool("Read", { file_path: `${work}/big.txt` }),
            callTool("Grep", { pattern: "value_0(1|2)00", path: work, output_mode: "content", "-n": true }),
            callTool("mcp__loupe__read_result", { result_id: "r_1", lines: 3000 }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.outbound, []);
    const model = run.requests.filter((entry) => entry.route.kind === "model");
    assert.ok(model.every((entry) => entry.path === "/v1/messages?beta=true" && entry.headers["x-api-key"] === "sk-ant-loupe-test"));
    assert.ok(model.every((entry) => entry.headers["x-loupe-source"] === "claude-probe" && entry.headers["x-loupe-token"] === "t-claude"));
    const view = lastScripted(run);
    for (const tool of ["Bash", "Read", "Grep", "Glob", "Edit", "Write"]) assert.ok(view.tools.includes(tool), tool);
    // MCP tools are deferred behind ToolSearch: named in a system reminder, not in `tools`.
    assert.ok(!view.tools.includes("mcp__loupe__read_result"));
    assert.match(view.prompt, /deferred tools[\s\S]*\nmcp__loupe__read_result\n/);

    const [long, failing] = resultsFor(run, "Bash");
    assert.match(
      long!.text,
      /^<persisted-output>\nOutput too large \(595\.7KB\)\. Full output saved to: \S+\/tool-results\/\S+\.txt\n\nPreview \(first 2KB\):\n00001 INFO/,
    );
    assert.match(long!.text, /\n\.\.\.\n<\/persisted-output>/);
    assert.doesNotMatch(long!.text, /end-of-line-05000/);
    assert.equal(failing!.isError, true);
    assert.match(failing!.text, /^Exit code 1\ntest_double_01 /);
    assert.match(failing!.text, /FAILED \(failures=3\)/);
    const [read] = resultsFor(run, "Read");
    assert.match(read!.text, /^1\tconst value_0001 = /);
    assert.match(
      read!.text,
      /\[Truncated: PARTIAL view — \S+big\.txt: showing lines 1-\d+ of 3001 total \(\d+ tokens, cap 25000\)\. Call Read with offset=\d+ limit=\d+ for the next page/,
    );
    assert.match(resultsFor(run, "Grep")[0]!.text, /^big\.txt:100:const value_0100/);
    const [mcp] = resultsFor(run, "mcp__loupe__read_result");
    assert.match(
      mcp!.text,
      /^Error: result \(272,999 characters across 3,000 lines\) exceeds maximum allowed tokens\. Output has been saved to \S+\/tool-results\/mcp-loupe-read_result-/,
    );
    assert.ok(run.requests.some((entry) => entry.path.startsWith("/v1/messages/count_tokens")));
  });

  it("lets PreToolUse rewrite the input and PostToolUse replace the output (in the tool's own shape)", async (t) => {
    if (!(await runtimeAvailable(t, "claude"))) return;
    const log = join(scratch, "hooks.jsonl");
    const answers = join(scratch, "answers.json");
    const post = (toolOutput: unknown): unknown => ({ stdout: { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: toolOutput } } });
    await writeFile(
      answers,
      JSON.stringify({
        "PreToolUse:Bash:original-output": {
          stdout: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo rewritten-by-pre-hook" } } },
        },
        "PostToolUse:Bash:second-output": post({ stdout: "REPLACED-BASH-OBJECT", stderr: "", interrupted: false, isImage: false }),
        "PostToolUse:Bash:third-output": post("REPLACED-BASH-STRING"),
        "PostToolUseFailure:Bash": { stdout: { hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "FAILURE-CONTEXT" } } },
        "PostToolUse:Read": post({ type: "text", file: { filePath: "/x", content: "REPLACED-READ", numLines: 1, startLine: 7, totalLines: 1 } }),
        "PostToolUse:mcp__loupe__read_result": post([{ type: "text", text: "REPLACED-MCP" }]),
      }),
    );
    const hook = (tag: string): unknown => [{ matcher: "*", hooks: [{ type: "command", command: hookCommand(log, answers, tag) }] }];
    const run = await runClaudeCode(vendor, {
      prompt: "Run the checks.",
      workFiles: WORK_FILES,
      mcpServers: { loupe: probeMcpServer() },
      settings: { hooks: { PreToolUse: hook("pre"), PostToolUse: hook("post"), PostToolUseFailure: hook("failure") } },
      onStart: ({ work }) =>
        vendor.setScript(
          scriptSteps([
            callTool("Bash", { command: "echo original-output", description: "a" }),
            callTool("Bash", { command: "echo second-output", description: "b" }),
            callTool("Bash", { command: "echo third-output", description: "c" }),
            callTool("Bash", { command: LONG_OUTPUT_COMMAND, description: "d" }),
            callTool("Bash", { command: FAILING_COMMAND, description: "e" }),
            callTool("Read", { file_path: `${work}/big.txt`, offset: 10, limit: 5 }),
            callTool("mcp__loupe__read_result", { result_id: "r_1", lines: 3 }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    const bash = resultsFor(run, "Bash").map((result) => result.text.split("\n\n<system-reminder>")[0]);
    assert.equal(bash[0], "rewritten-by-pre-hook");
    assert.equal(bash[1], "REPLACED-BASH-OBJECT");
    assert.equal(bash[2], "third-output", "a plain string as updatedToolOutput is ignored for Bash");
    assert.match(
      resultsFor(run, "Bash")[4]!.text,
      /FAILED \(failures=3\)\n\n<system-reminder>\nPostToolUseFailure:Bash hook additional context: FAILURE-CONTEXT\n<\/system-reminder>/,
    );
    assert.match(resultsFor(run, "Read")[0]!.text, /^7\tREPLACED-READ\n/);
    assert.match(resultsFor(run, "mcp__loupe__read_result")[0]!.text, /^REPLACED-MCP\n/);

    const hooks = await readJsonLines(log);
    const payload = (event: string, marker: string): Record<string, unknown> => {
      const found = hooks.find(
        (entry) => entry["event"] === event && JSON.stringify((entry["payload"] as Record<string, unknown>)["tool_input"]).includes(marker),
      );
      assert.ok(found, `${event} ${marker}`);
      return found["payload"] as Record<string, unknown>;
    };
    const longPost = payload("PostToolUse", "awk")["tool_response"] as Record<string, unknown>;
    assert.equal(longPost["persistedOutputSize"], 610_000);
    assert.match(String(longPost["persistedOutputPath"]), /\/tool-results\/\w+\.txt$/);
    assert.ok(String(longPost["stdout"]).length <= 30_000);
    const failure = payload("PostToolUseFailure", "unittest");
    assert.equal(failure["tool_response"], undefined);
    assert.match(String(failure["error"]), /^Exit code 1\n/);
    const read = payload("PostToolUse", "big.txt")["tool_response"] as { type: string; file: Record<string, unknown> };
    assert.deepEqual(Object.keys(read.file).sort(), ["content", "filePath", "numLines", "startLine", "totalLines"]);
    assert.equal(read.file["startLine"], 10);
    const mcp = payload("PostToolUse", "r_1");
    assert.deepEqual(mcp["mcp_server"], { name: "loupe", source: "dynamic" });
  });

  it("reaches a streamable HTTP MCP server, sending its configured headers", async (t) => {
    if (!(await runtimeAvailable(t, "claude"))) return;
    await checkHttpMcp(t, "claude", vendor, [callTool("mcp__loupe__read_result", { result_id: "r_http", lines: 2 })]);
  });
});
