import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { callTool, scriptSteps } from "@loupe/testing";
import { README_RULE, getSourceLimit, loupeEnv, loupeHttp, loupeHttpMcp, putSourceLimit, setupSettings, trackerMcp } from "./support/loupe-wiring.js";
import { describeRun, lastScripted, runtimeAvailable } from "./support/probe-run.js";
import { checkSavedSession, SESSION_PROMPT, sessionScript } from "./support/saved-session.js";
import { runCodex } from "./support/run-runtime.js";
import { GREP_PATTERN, LONG_OUTPUT_COMMAND, SUITE_FAILING_COMMAND, SUITE_WORK_FILES, fileLine, longOutputLine } from "./support/suite-fixtures.js";
import { checkSameBytes, recoverStep, results, startSuite, type Suite, logMark, loupeProblems } from "./support/suite-run.js";
import { checkTrackerView } from "./support/tracker-checks.js";
import { checkFailingEvidence, checkLogLines, checkRecovered, clauseParts, cutNoticeOf, omissionNotices } from "./support/view-checks.js";

// Codex has no read tool (it reads with cat or sed): the script reads nothing, and searches with grep.
const STEPS = [
  callTool("exec_command", { cmd: LONG_OUTPUT_COMMAND }),
  callTool("exec_command", { cmd: SUITE_FAILING_COMMAND }),
  // What the model says before the call reaches the hook through Codex's rollout (transcript_path): the view keeps the line it names.
  callTool("exec_command", { cmd: `grep -nE '${GREP_PATTERN}' big.txt` }, "Let me find where value_1507 is computed."),
  // MCP tools are deferred behind tool_search; one search loads both servers' namespaces.
  callTool("tool_search", { query: "tracker search loupe read_result", limit: 8 }),
  callTool("mcp__tracker__search", { query: "crash" }),
];

describe("Codex 0.169.0 with Loupe", () => {
  let suite: Suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite.close();
  });

  it("hooks: PostToolUse answers decision:block with Loupe's view of what Codex kept; the model recovers through /mcp", async (t) => {
    if (!(await runtimeAvailable(t, "codex"))) return;
    // The hook `loupe setup codex` writes (every tool: the hook leaves what is already small alone).
    const hooks = await setupSettings("codex", ".codex/hooks.json");
    const mark = logMark(suite);
    const run = await runCodex(suite.vendor, {
      prompt: "Run the checks.",
      workFiles: SUITE_WORK_FILES,
      env: loupeEnv(suite.loupe),
      mcpServers: { loupe: loupeHttpMcp(suite.loupe), tracker: trackerMcp() },
      homeFiles: { ".codex/hooks.json": JSON.stringify(hooks) },
      args: ["--dangerously-bypass-hook-trust"],
      onStart: () =>
        suite.vendor.setScript(
          scriptSteps([
            ...STEPS,
            recoverStep("mcp__loupe__read_result", { tool: "exec_command" }),
            // An earlier call's arguments reach the intent too: the last search's own message names nothing.
            callTool("exec_command", { cmd: "grep -c value_1227 big.txt" }),
            callTool("exec_command", { cmd: `grep -nE '${GREP_PATTERN}' big.txt` }, "Now the matches once more."),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    t.diagnostic(loupeProblems(suite, mark));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.outbound, []);

    // Codex hands its PostToolUse hook only what it kept (10,000 tokens, its own marker inside) and no exit
    // status; "block" replaces the whole output, Codex's header with the status included.
    const [long, failing, grep] = results(run, "exec_command");
    assert.match(long!.text, /^\[loupe\] \$ awk .*\nWarning: truncated output \(original token count: \d+\)\nTotal output lines: 5000\n\n00001 INFO /);
    assert.doesNotMatch(long!.text, /Process exited with code/);
    const [omitted] = omissionNotices(long!.text);
    const viewLines = long!.text.split("\n");
    const lastHead = viewLines[viewLines.findIndex((line) => line.startsWith("[loupe] lines")) - 1] ?? "";
    const offset = Number(lastHead.slice(0, 5)) - (omitted!.first - 1);
    assert.deepEqual(checkLogLines(long!.text).slice(-1), [5000]);
    checkFailingEvidence(failing!.text);
    assert.match(failing!.text, /^\[loupe\] \$ python3 -m unittest -v test_numbers\.py\n/);
    assert.match(grep!.text, /^\[loupe\] 300 matches in big\.txt\n/);
    assert.ok(grep!.text.split("\n").includes(`1507:${fileLine(1507)}`), "the line the model's message names, from the middle of the matches");
    const again = results(run, "exec_command")[4]!.text.split("\n");
    assert.ok(again.includes(`1227:${fileLine(1227)}`), "the line an earlier call's arguments named (the intent's earlier messages)");
    for (const line of grep!.text.split("\n").filter((text) => /^\d+:/.test(text)))
      assert.equal(line.slice(line.indexOf(":") + 1), fileLine(Number(line.split(":")[0])));
    checkTrackerView(results(run, "mcp__tracker__search")[0]!.text);

    // The saved result is what Codex kept: its line n is the log's line n + offset, up to Codex's marker.
    const answer = results(run, "mcp__loupe__read_result")[0]!.text;
    assert.match(answer, /^Wall time: [\d.]+ seconds\nOutput:\n\[result /);
    const range = checkRecovered(answer, omitted!.continuation, (n) => longOutputLine(n + offset));
    assert.ok(range.lines.length > 10);
  });

  it("vendor proxy: base_url at Loupe, keep_tools exec_command cuts its results and counts Codex's own marker; the default keep_tools warns", async (t) => {
    if (!(await runtimeAvailable(t, "codex"))) return;
    await putSourceLimit(suite.loupe, "codex-app", { ...README_RULE, keep_tools: { values: ["exec_command"] } });
    const mark = logMark(suite);
    const run = await runCodex(suite.vendor, {
      prompt: "Run the checks.",
      workFiles: SUITE_WORK_FILES,
      baseUrl: loupeHttp(suite.loupe),
      headers: { "x-loupe-source": "codex-app" },
      mcpServers: { tracker: trackerMcp() },
      onStart: () => suite.vendor.setScript(scriptSteps(STEPS)),
    });
    t.diagnostic(describeRun(run));
    t.diagnostic(loupeProblems(suite, mark));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(
      run.requests.every(
        (entry) => entry.path === "/v1/responses" && entry.headers["x-loupe-source"] === undefined && entry.headers["authorization"] === "Bearer sk-loupe-test",
      ),
    );

    const [long, failing, grep] = results(run, "exec_command");
    assert.match(long!.text, /^Chunk ID: \w+\nWall time: [\d.]+ seconds\nProcess exited with code 0\n/);
    const marker = /…(\d+) tokens truncated…/.exec(long!.text);
    assert.ok(marker, "Codex's marker line is kept");
    assert.equal(
      clauseParts(cutNoticeOf(long!.text).clause).runtime,
      `; the runtime had already removed about ${Number(marker[1]).toLocaleString("en-US")} tokens`,
    );
    assert.deepEqual(checkLogLines(long!.text).slice(-1), [5000]);
    assert.match(failing!.text, /\nProcess exited with code 1\n/);
    checkFailingEvidence(failing!.text);
    cutNoticeOf(failing!.text);
    assert.ok(cutNoticeOf(grep!.text).total > 290);
    for (const result of [long, failing, grep]) assert.ok(result!.text.length <= README_RULE.keep_limit_chars);
    assert.doesNotMatch(results(run, "mcp__tracker__search")[0]!.text, /\[loupe/, "MCP results are not in keep_tools");
    checkSameBytes(run, [long!.callId, failing!.callId]);
    const rule = await getSourceLimit(suite.loupe, "codex-app");
    assert.equal(rule["keep_tools_matched"], true);

    // The same request under the README's rule as it is (keep_tools bash, shell, execute): nothing to cut, and Loupe says why.
    await putSourceLimit(suite.loupe, "codex-default", README_RULE);
    const body = JSON.stringify(lastScripted(run).body);
    const answer = await fetch(`${loupeHttp(suite.loupe)}/v1/responses`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", authorization: "Bearer sk-loupe-test", "x-loupe-source": "codex-default" },
    });
    await answer.arrayBuffer();
    assert.match(
      answer.headers.get("x-loupe-warning") ?? "",
      /^keep_tools \(bash, shell, execute\) names none of this app's tools \(.*exec_command.*\): nothing is cut/,
    );
    const defaults = await getSourceLimit(suite.loupe, "codex-default");
    assert.equal(defaults["keep_tools_matched"], false);
    assert.ok((defaults["recent_tools"] as string[]).includes("exec_command"));
  });

  it("its session rollout replays in loupe eval: a row per answered call, exit codes from the output, the model's next turn as its next action", async (t) => {
    if (!(await runtimeAvailable(t, "codex"))) return;
    const run = await runCodex(suite.vendor, {
      prompt: SESSION_PROMPT,
      workFiles: SUITE_WORK_FILES,
      keepSandbox: true,
      onStart: () => suite.vendor.setScript(sessionScript("exec_command", (cmd) => ({ cmd }))),
    });
    t.diagnostic(describeRun(run));
    await checkSavedSession(run, ".codex/sessions", { tool: "exec_command", agentSystem: /^codex/, exitCodes: [0, 2] });
  });
});
