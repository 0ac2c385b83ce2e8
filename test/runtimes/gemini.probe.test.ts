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
import { runGeminiCli } from "./support/run-runtime.js";

const WORK_FILES = { "test_numbers.py": FAILING_TEST_FILE, "big.txt": longFile() };

describe("Gemini CLI 0.61.0 (probe, without Loupe)", () => {
  let vendor: ScriptedVendor;
  let scratch: string;
  before(async () => {
    vendor = await startScriptedVendor({ script: scriptSteps([]) });
    scratch = await mkdtemp(join(tmpdir(), "loupe-gemini-probe-"));
  });
  after(async () => {
    await vendor.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("keeps the first 8,000 and last 32,000 characters of long output, reads 2,000 lines and names MCP tools mcp_<server>_<tool>", async (t) => {
    if (!(await runtimeAvailable(t, "gemini"))) return;
    const run = await runGeminiCli(vendor, {
      prompt: "Run the checks.",
      workFiles: WORK_FILES,
      headers: { "x-loupe-source": "gemini-probe", "x-loupe-token": "t-gemini" },
      mcpServers: { loupe: probeMcpServer() },
      onStart: ({ work }) =>
        vendor.setScript(
          scriptSteps([
            callTool("run_shell_command", { command: LONG_OUTPUT_COMMAND, description: "Print a long log" }),
            callTool("run_shell_command", { command: FAILING_COMMAND, description: "Run the tests" }),
            callTool("read_file", { file_path: `${work}/big.txt` }),
            callTool("grep_search", { pattern: "value_0(1|2)00" }),
            callTool("mcp_loupe_read_result", { result_id: "r_1", lines: 3000 }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.outbound, []);
    assert.ok(run.requests.every((entry) => entry.path === "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"));
    assert.ok(run.requests.every((entry) => entry.headers["x-goog-api-key"] === "loupe-test-gemini-key" && entry.headers["x-loupe-token"] === "t-gemini"));
    const view = lastScripted(run);
    for (const tool of ["run_shell_command", "read_file", "grep_search", "glob", "replace", "write_file", "mcp_loupe_read_result"])
      assert.ok(view.tools.includes(tool), tool);

    const [long, failing] = resultsFor(run, "run_shell_command");
    assert.match(
      long!.text,
      /^Output too large\. Showing first 8,000 and last 32,000 characters\. For full output see: \S+\/tool-outputs\/session-[\w-]+\/run_shell_command__run_shell_command_\d+_0\.txt\n<untrusted_context>\nOutput: 00001 INFO/,
    );
    assert.match(long!.text, /\n\.\.\. \[[\d,]+ characters omitted\] \.\.\.\n/);
    assert.match(long!.text, /end-of-line-05000\nProcess Group PGID: \d+\n<\/untrusted_context>$/);
    assert.equal(failing!.isError, false, "a failing command is a normal result");
    assert.match(failing!.text, /FAILED \(failures=3\)\nExit Code: 1\nProcess Group PGID: \d+\n<\/untrusted_context>$/);
    const [read] = resultsFor(run, "read_file");
    assert.match(
      read!.text,
      /^\nIMPORTANT: The file content has been truncated\.\nStatus: Showing lines 1-2000 of 3001 total lines\.\nAction: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call\. For example, to read the next section of the file, use start_line: 2001\.\n\n--- FILE CONTENT \(truncated\) ---\nconst value_0001 = /,
    );
    assert.match(resultsFor(run, "grep_search")[0]!.text, /^Found 2 matches for pattern "value_0\(1\|2\)00"/);
    assert.match(resultsFor(run, "mcp_loupe_read_result")[0]!.text, /^Output too large\. Showing first 8,000 and last 32,000 characters\./);
  });

  it("hooks (settings.json): BeforeTool may rewrite tool_input; AfterTool may block (its reason becomes an error result) or add context", async (t) => {
    if (!(await runtimeAvailable(t, "gemini"))) return;
    const log = join(scratch, "hooks.jsonl");
    const answers = join(scratch, "answers.json");
    await writeFile(
      answers,
      JSON.stringify({
        "BeforeTool:*:original-output": {
          stdout: { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "echo rewritten-by-before-hook" } } },
        },
        "AfterTool:*:second-output": { stdout: { decision: "block", reason: "REPLACED-VIA-BLOCK-REASON" } },
        "AfterTool:*:unittest": { stdout: { hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "FAILURE-CONTEXT" } } },
      }),
    );
    const hook = (tag: string): unknown => [{ matcher: "*", hooks: [{ type: "command", command: hookCommand(log, answers, tag) }] }];
    const run = await runGeminiCli(vendor, {
      prompt: "Run the checks.",
      workFiles: WORK_FILES,
      settings: { hooks: { BeforeTool: hook("before"), AfterTool: hook("after") } },
      onStart: () =>
        vendor.setScript(
          scriptSteps([
            callTool("run_shell_command", { command: "echo original-output", description: "a" }),
            callTool("run_shell_command", { command: "echo second-output", description: "b" }),
            callTool("run_shell_command", { command: FAILING_COMMAND, description: "c" }),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    assert.equal(run.exitCode, 0, run.stderr);
    const [first, second, third] = resultsFor(run, "run_shell_command");
    assert.match(
      first!.text,
      /^<untrusted_context>\nOutput: rewritten-by-before-hook\n[\s\S]*\n\n\[System\] Tool input parameters were modified by a hook before execution\.$/,
    );
    assert.deepEqual([second!.text, second!.isError], ["REPLACED-VIA-BLOCK-REASON", true]);
    assert.match(third!.text, /<\/untrusted_context>\n\n<hook_context>FAILURE-CONTEXT<\/hook_context>$/);

    const after = (await readJsonLines(log)).find((entry) => entry["event"] === "AfterTool")?.["payload"] as Record<string, unknown>;
    assert.equal(after["tool_name"], "run_shell_command");
    assert.deepEqual(after["tool_input"], { command: "echo rewritten-by-before-hook" });
    assert.deepEqual(Object.keys(after["tool_response"] as object).sort(), ["llmContent", "returnDisplay"]);
  });

  it("reaches a streamable HTTP MCP server, sending its configured headers", async (t) => {
    if (!(await runtimeAvailable(t, "gemini"))) return;
    await checkHttpMcp(t, "gemini", vendor, [callTool("mcp_loupe_read_result", { result_id: "r_http", lines: 2 })]);
  });
});
