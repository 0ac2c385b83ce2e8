import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { callTool, scriptSteps } from "@loupe/testing";
import { README_RULE, getSourceLimit, loupeEnv, loupeHttp, loupeStdioMcp, putSourceLimit, setupSettings, trackerMcp } from "./support/loupe-wiring.js";
import { describeRun, runtimeAvailable } from "./support/probe-run.js";
import { checkSavedSession, SESSION_PROMPT, sessionScript } from "./support/saved-session.js";
import { runGeminiCli } from "./support/run-runtime.js";
import { GREP_PATTERN, fileLine, LONG_OUTPUT_COMMAND, SUITE_FAILING_COMMAND, SUITE_WORK_FILES, longOutputLine } from "./support/suite-fixtures.js";
import { checkSameBytes, recoverStep, results, startSuite, type Suite, logMark, loupeProblems } from "./support/suite-run.js";
import { checkFailingEvidence, checkLogLines, checkRecovered, clauseParts, cutNoticeOf, omissionNotices } from "./support/view-checks.js";

const steps = (work: string): ReturnType<typeof callTool>[] => [
  callTool("run_shell_command", { command: LONG_OUTPUT_COMMAND, description: "Print a long log" }),
  callTool("run_shell_command", { command: SUITE_FAILING_COMMAND, description: "Run the tests" }),
  callTool("read_file", { file_path: `${work}/big.txt` }),
  callTool("grep_search", { pattern: GREP_PATTERN }),
  callTool("mcp_tracker_search", { query: "crash" }),
];

/** Checks that read_file, grep_search and the MCP result reached the model as Gemini CLI made them (no Loupe in them). */
function checkGeminiOwn(run: Awaited<ReturnType<typeof runGeminiCli>>): void {
  assert.match(results(run, "read_file")[0]!.text, /^\nIMPORTANT: The file content has been truncated\.\nStatus: Showing lines 1-2000 of 3001 total lines\./);
  assert.match(results(run, "grep_search")[0]!.text, /^Found 100 matches for pattern /);
  assert.match(results(run, "mcp_tracker_search")[0]!.text, /^Output too large\. Showing first 8,000 and last 32,000 characters\./);
  for (const tool of ["read_file", "grep_search", "mcp_tracker_search"]) assert.doesNotMatch(results(run, tool)[0]!.text, /\[loupe/, tool);
}

describe("Gemini CLI 0.61.0 with Loupe", () => {
  let suite: Suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite.close();
  });

  it("hooks: BeforeTool runs shell commands through loupe exec (AfterTool cannot replace output); the model recovers through loupe mcp", async (t) => {
    if (!(await runtimeAvailable(t, "gemini"))) return;
    const mark = logMark(suite);
    const run = await runGeminiCli(suite.vendor, {
      prompt: "Run the checks.",
      workFiles: SUITE_WORK_FILES,
      env: loupeEnv(suite.loupe),
      mcpServers: { loupe: loupeStdioMcp(suite.loupe), tracker: trackerMcp() },
      // The hook `loupe setup gemini-cli` writes (its MCP server is replaced by the suite's own, on Loupe's test address).
      settings: { hooks: (await setupSettings("gemini-cli", ".gemini/settings.json"))["hooks"] },
      onStart: ({ work }) =>
        suite.vendor.setScript(
          scriptSteps([
            ...steps(work),
            recoverStep("mcp_loupe_read_result", { tool: "run_shell_command" }),
            // What the model says before a shell call reaches loupe exec through Gemini CLI's chat file (transcript_path).
            callTool("run_shell_command", { command: "cat big.txt", description: "Show the file" }, "Let me find where value_1777 is computed."),
            // An earlier call's arguments reach the intent too: the last read's own message names nothing.
            callTool("run_shell_command", { command: "grep -c value_1234 big.txt", description: "Count the uses" }),
            callTool("run_shell_command", { command: "cat big.txt", description: "Show the file again" }, "Now the whole file once more."),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    t.diagnostic(loupeProblems(suite, mark));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.outbound, []);

    const [long, failing] = results(run, "run_shell_command");
    assert.match(long!.text, /^<untrusted_context>\nOutput: \[loupe\] \$ awk .* · exit 0(?: · [\d.]+ (?:ms|s))?\n00001 INFO /);
    assert.match(long!.text, /\n\[System\] Tool input parameters were modified by a hook before execution\.$/);
    const [omitted] = omissionNotices(long!.text);
    assert.equal(omitted?.total, 5000);
    const shown = checkLogLines(long!.text);
    assert.deepEqual([shown[0], shown.at(-1), shown.length + omitted.last - omitted.first + 1], [1, 5000, 5000]);
    assert.match(failing!.text, /^<untrusted_context>\nOutput: \[loupe\] \$ python3 -m unittest -v test_numbers\.py · exit 1 \(failed\)/);
    assert.match(failing!.text, /\nExit Code: 1\n/);
    checkFailingEvidence(failing!.text);
    checkGeminiOwn(run);
    checkRecovered(results(run, "mcp_loupe_read_result")[0]!.text, omitted.continuation, longOutputLine);
    const asked = results(run, "run_shell_command")[2]!.text;
    assert.match(asked, /\n\[loupe\] lines [\d,]+–[\d,]+ of big\.txt \(3,000 lines\) omitted/, "loupe exec projected the read");
    assert.ok(asked.split("\n").includes(fileLine(1777)), "the line the model's message named, from the middle of the file");
    const again = results(run, "run_shell_command")[4]!.text.split("\n");
    assert.ok(again.includes(fileLine(1234)), "the line an earlier call's arguments named (the intent's earlier messages)");
  });

  it("vendor proxy: GOOGLE_GEMINI_BASE_URL at Loupe, keep_tools run_shell_command; the cut counts what Gemini CLI removed and names its saved file", async (t) => {
    if (!(await runtimeAvailable(t, "gemini"))) return;
    await putSourceLimit(suite.loupe, "gemini-app", { ...README_RULE, keep_tools: { values: ["run_shell_command"] } });
    const mark = logMark(suite);
    const run = await runGeminiCli(suite.vendor, {
      prompt: "Run the checks.",
      workFiles: SUITE_WORK_FILES,
      baseUrl: loupeHttp(suite.loupe),
      headers: { "x-loupe-source": "gemini-app" },
      mcpServers: { tracker: trackerMcp() },
      onStart: ({ work }) => suite.vendor.setScript(scriptSteps(steps(work))),
    });
    t.diagnostic(describeRun(run));
    t.diagnostic(loupeProblems(suite, mark));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(run.requests.every((entry) => entry.headers["x-loupe-source"] === undefined && entry.headers["x-goog-api-key"] === "loupe-test-gemini-key"));

    const [long, failing] = results(run, "run_shell_command");
    // Gemini CLI kept 8,000 + 32,000 characters itself and saved the whole; Loupe's cut keeps its notice and says so.
    const saved = /^Output too large\. Showing first 8,000 and last 32,000 characters\. For full output see: (\S+)\n/.exec(long!.text);
    assert.ok(saved, long!.text.slice(0, 300));
    const removed = /\n\.\.\. \[([\d,]+) characters omitted\] \.\.\.\n\[loupe: /.exec(long!.text);
    assert.ok(removed, "Gemini CLI's marker line is kept, before the notice");
    // Loupe's saved original first (it restores everything), then what Gemini CLI had removed and where it saved the whole.
    assert.equal(
      clauseParts(cutNoticeOf(long!.text).clause).runtime,
      `; the runtime had already removed ${removed[1] ?? ""} characters; the runtime saved the whole output to ${saved[1] ?? ""}`,
    );
    assert.deepEqual(checkLogLines(long!.text).slice(-1), [5000]);
    cutNoticeOf(failing!.text);
    checkFailingEvidence(failing!.text);
    assert.match(failing!.text, /\nExit Code: 1\n/);
    for (const result of [long, failing]) assert.ok(result!.text.length <= README_RULE.keep_limit_chars);
    checkGeminiOwn(run);
    checkSameBytes(run, [long!.callId, failing!.callId]);
    assert.equal((await getSourceLimit(suite.loupe, "gemini-app"))["keep_tools_matched"], true);
  });

  it("its chat file replays in loupe eval: a row per answered call, the command's own output and exit code, the next reply as its next action", async (t) => {
    if (!(await runtimeAvailable(t, "gemini"))) return;
    const run = await runGeminiCli(suite.vendor, {
      prompt: SESSION_PROMPT,
      workFiles: SUITE_WORK_FILES,
      keepSandbox: true,
      onStart: () => suite.vendor.setScript(sessionScript("run_shell_command", (command) => ({ command }))),
    });
    t.diagnostic(describeRun(run));
    await checkSavedSession(run, ".gemini/tmp", { tool: "run_shell_command", agentSystem: /^gemini-cli/, exitCodes: [0, 2] });
  });
});
