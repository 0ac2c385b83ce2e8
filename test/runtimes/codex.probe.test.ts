import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { callTool, scriptSteps, startScriptedVendor, type ScriptedVendor } from "@loupe/testing";
import { FAILING_COMMAND, FAILING_TEST_FILE, LONG_OUTPUT_COMMAND } from "./support/probe-fixtures.js";
import { checkHttpMcp } from "./support/probe-http-mcp.js";
import { describeRun, lastScripted, resultsFor, runtimeAvailable } from "./support/probe-run.js";
import { hookCommand, probeMcpServer, readJsonLines } from "./support/probe-tools.js";
import { runCodex } from "./support/run-runtime.js";

describe("Codex 0.169.0 (probe, without Loupe)", () => {
  let vendor: ScriptedVendor;
  let scratch: string;
  before(async () => {
    vendor = await startScriptedVendor({ script: scriptSteps([]) });
    scratch = await mkdtemp(join(tmpdir(), "loupe-codex-probe-"));
  });
  after(async () => {
    await vendor.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("cuts long exec_command output to 10,000 tokens with a middle marker and defers MCP tools behind tool_search", async (t) => {
    if (!(await runtimeAvailable(t, "codex"))) return;
    const run = await runCodex(vendor, {
      prompt: "Run the checks.",
      workFiles: { "test_numbers.py": FAILING_TEST_FILE },
      headers: { "x-loupe-source": "codex-probe", "x-loupe-token": "t-codex" },
      mcpServers: { loupe: probeMcpServer() },
      onStart: () =>
        vendor.setScript(
          scriptSteps([
            callTool("exec_command", { cmd: LONG_OUTPUT_COMMAND }),
            callTool("exec_command", { cmd: FAILING_COMMAND }),
            callTool("tool_search", { query: "loupe read_result", limit: 8 }),
            callTool("mcp__loupe__read_result", { result_id: "r_1", lines: 3000 }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.outbound, []);
    assert.ok(run.requests.every((entry) => entry.method === "POST" && entry.path === "/v1/responses"));
    assert.ok(run.requests.every((entry) => entry.headers["authorization"] === "Bearer sk-loupe-test" && entry.headers["x-loupe-source"] === "codex-probe"));
    const view = lastScripted(run);
    for (const tool of ["exec_command", "write_stdin", "apply_patch", "tool_search"]) assert.ok(view.tools.includes(tool), tool);
    assert.ok(!view.tools.some((tool) => tool.includes("loupe")));

    const [long, failing] = resultsFor(run, "exec_command");
    assert.match(
      long!.text,
      /^Chunk ID: \w+\nWall time: [\d.]+ seconds\nProcess exited with code 0\nOriginal token count: \d+\nOutput:\nWarning: truncated output \(original token count: \d+\)\nTotal output lines: 5000\n\n00001 INFO/,
    );
    assert.match(long!.text, /…\d+ tokens truncated…/);
    assert.match(long!.text, /end-of-line-05000\n$/);
    assert.match(failing!.text, /\nProcess exited with code 1\n/);
    assert.match(failing!.text, /FAILED \(failures=3\)\n$/);
    const [search] = resultsFor(run, "tool_search");
    assert.deepEqual(
      (JSON.parse(search!.text) as Array<{ type: string; name: string; tools: Array<{ name: string }> }>).map((tool) => [
        tool.type,
        tool.name,
        tool.tools.map((item) => item.name),
      ]),
      [["namespace", "mcp__loupe", ["read_result"]]],
    );
    const [mcp] = resultsFor(run, "mcp__loupe__read_result");
    assert.match(mcp!.text, /^Wall time: [\d.]+ seconds\nOutput:\nmcp line 00001 /);
    assert.match(mcp!.text, /…\d+ tokens truncated…/);
  });

  it("hooks (hooks.json): PostToolUse decision:block replaces the output with its reason; updatedInput and updatedToolOutput are not honoured", async (t) => {
    if (!(await runtimeAvailable(t, "codex"))) return;
    const log = join(scratch, "hooks.jsonl");
    const answers = join(scratch, "answers.json");
    await writeFile(
      answers,
      JSON.stringify({
        "PreToolUse:*:original-output": {
          stdout: { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo rewritten-by-pre-hook" } } },
        },
        "PostToolUse:*:second-output": { stdout: { decision: "block", reason: "REPLACED-VIA-BLOCK-REASON" } },
        "PostToolUse:*:third-output": { stdout: { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "REPLACED" } } },
        "PostToolUse:*:unittest": { stdout: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "FAILURE-CONTEXT" } } },
      }),
    );
    const hook = (tag: string): unknown => [{ matcher: "*", hooks: [{ type: "command", command: hookCommand(log, answers, tag) }] }];
    const run = await runCodex(vendor, {
      prompt: "Run the checks.",
      workFiles: { "test_numbers.py": FAILING_TEST_FILE },
      homeFiles: { ".codex/hooks.json": JSON.stringify({ hooks: { PreToolUse: hook("pre"), PostToolUse: hook("post") } }) },
      // Hooks run only once trusted; this flag trusts them for the run (a warning item says so).
      args: ["--dangerously-bypass-hook-trust"],
      onStart: () =>
        vendor.setScript(
          scriptSteps([
            callTool("exec_command", { cmd: "echo original-output" }),
            callTool("exec_command", { cmd: "echo second-output" }),
            callTool("exec_command", { cmd: "echo third-output" }),
            callTool("exec_command", { cmd: FAILING_COMMAND }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    const texts = resultsFor(run, "exec_command").map((result) => result.text);
    assert.match(texts[0]!, /\nOutput:\noriginal-output\n$/, "updatedInput is not applied");
    assert.equal(texts[1], "REPLACED-VIA-BLOCK-REASON");
    assert.match(texts[2]!, /\nOutput:\nthird-output\n$/, "updatedToolOutput is not applied");
    const input = (lastScripted(run).body as { input: Array<Record<string, unknown>> }).input;
    const context = input.findIndex(
      (item) => item["role"] === "developer" && JSON.stringify(item["content"]) === JSON.stringify([{ type: "input_text", text: "FAILURE-CONTEXT" }]),
    );
    assert.ok(context > 0, "additionalContext arrives as a developer message");
    assert.equal(input[context + 1]?.["type"], "function_call_output");

    const hooks = await readJsonLines(log);
    const pre = hooks.find((entry) => entry["event"] === "PreToolUse")?.["payload"] as Record<string, unknown>;
    assert.equal(pre["tool_name"], "Bash");
    assert.deepEqual(pre["tool_input"], { command: "echo original-output" });
    const post = hooks.find((entry) => entry["event"] === "PostToolUse")?.["payload"] as Record<string, unknown>;
    assert.equal(post["tool_response"], "original-output\n");
    assert.equal(post["permission_mode"], "bypassPermissions");
  });

  it("reaches a streamable HTTP MCP server, sending its configured headers", async (t) => {
    if (!(await runtimeAvailable(t, "codex"))) return;
    await checkHttpMcp(t, "codex", vendor, [
      callTool("tool_search", { query: "loupe read_result" }),
      callTool("mcp__loupe__read_result", { result_id: "r_http", lines: 2 }),
    ]);
  });
});
