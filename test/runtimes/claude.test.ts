import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { callTool, scriptSteps } from "@loupe/testing";
import { continuationsIn } from "./support/continuations.js";
import { README_RULE, getSourceLimit, loupeEnv, loupeHttp, loupeStdioMcp, putSourceLimit, setupSettings, trackerMcp } from "./support/loupe-wiring.js";
import { describeRun, runtimeAvailable } from "./support/probe-run.js";
import { checkSavedSession, SESSION_PROMPT, sessionScript } from "./support/saved-session.js";
import { runClaudeCode } from "./support/run-runtime.js";
import {
  GREP_PATTERN,
  LONG_FILE_LINES,
  LONG_OUTPUT_COMMAND,
  SUITE_FAILING_COMMAND,
  SUITE_WORK_FILES,
  fileLine,
  longOutputLine,
  seqCommand,
} from "./support/suite-fixtures.js";
import { checkSameBytes, recoverStep, results, startSuite, withoutReminders, type Suite, logMark, loupeProblems } from "./support/suite-run.js";
import { checkFailingEvidence, checkLogLines, checkRecovered, clauseParts, cutNoticeOf, omissionNotices } from "./support/view-checks.js";
import { checkTrackerView } from "./support/tracker-checks.js";

// 400 modules that all name the searched word: past the 250 files Claude Code's Grep lists by itself.
const MODULES = Object.fromEntries(
  Array.from({ length: 400 }, (_, index) => [`modules/mod_${String(index).padStart(4, "0")}.py`, `import compute  # module ${String(index)}\n`]),
);

const steps = (work: string): ReturnType<typeof callTool>[] => [
  callTool("Bash", { command: LONG_OUTPUT_COMMAND, description: "Print a long log" }),
  callTool("Bash", { command: SUITE_FAILING_COMMAND, description: "Run the tests" }),
  callTool("Read", { file_path: `${work}/big.txt` }),
  // Its message names a match past Claude Code's own 250-line cut (the 289th of 300).
  callTool("Grep", { pattern: GREP_PATTERN, path: work, output_mode: "content", "-n": true }, "Where is value_2887 computed?"),
  // Its default mode lists files; the message names one Claude Code's own 250 would not reach.
  callTool("Grep", { pattern: "import compute", path: `${work}/modules` }, "Which modules import compute? I need mod_0333.py."),
  callTool("mcp__tracker__search", { query: "crash" }),
];

describe("Claude Code 2.1.328 with Loupe", () => {
  let suite: Suite;
  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    await suite.close();
  });

  it("hooks: PreToolUse runs Bash through loupe exec, PostToolUse projects Read, Grep and MCP; the model recovers through loupe mcp", async (t) => {
    if (!(await runtimeAvailable(t, "claude"))) return;
    const mark = logMark(suite);
    const run = await runClaudeCode(suite.vendor, {
      prompt: "Run the checks.",
      workFiles: { ...SUITE_WORK_FILES, ...MODULES },
      env: loupeEnv(suite.loupe),
      mcpServers: { loupe: loupeStdioMcp(suite.loupe), tracker: trackerMcp() },
      // The hooks `loupe setup claude-code` writes. No permissionDecision in the PreToolUse answer:
      // --allowedTools Bash decides, and the rewritten command runs.
      settings: await setupSettings("claude-code", ".claude/settings.json"),
      onStart: ({ work }) =>
        suite.vendor.setScript(
          scriptSteps([
            ...steps(work),
            recoverStep("mcp__loupe__read_result", { tool: "Bash" }),
            recoverStep("mcp__loupe__read_result", { tool: "Read" }),
            // What the model says before a Bash call reaches loupe exec through the transcript (the pre-tool hook passes its path).
            callTool("Bash", { command: "cat big.txt", description: "Show the file" }, "Let me find where value_1777 is computed."),
            // An earlier call's arguments reach the intent too: the last read's own message names nothing.
            callTool("Bash", { command: "grep -c value_1234 big.txt", description: "Count the uses" }),
            callTool("Bash", { command: "cat big.txt", description: "Show the file again" }, "Now the whole file once more."),
          ]),
        ),
    });
    t.diagnostic(describeRun(run));
    t.diagnostic(loupeProblems(suite, mark));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.deepEqual(run.outbound, []);

    const [long, failing] = results(run, "Bash");
    const longView = withoutReminders(long!.text);
    assert.match(longView, /^\[loupe\] \$ awk .* · exit 0(?: · [\d.]+ (?:ms|s))?\n00001 INFO /, "the rewritten command ran and printed Loupe's view");
    assert.doesNotMatch(longView, /persisted-output/);
    const [omitted] = omissionNotices(longView);
    assert.equal(omitted?.total, 5000);
    const shown = checkLogLines(longView);
    assert.deepEqual([shown[0], shown.at(-1), shown.length + omitted.last - omitted.first + 1], [1, 5000, 5000]);
    assert.equal(failing!.isError, true);
    assert.match(failing!.text, /^Exit code 1\n\[loupe\] \$ python3 -m unittest -v test_numbers\.py · exit 1 \(failed\)/);
    checkFailingEvidence(failing!.text);

    // Read: every line Claude Code numbers is the file's line of that number; the rest of Loupe's view is beside them, in the
    // hook's context, each line under its own file number, and the notices there, never among the numbered lines.
    const read = results(run, "Read")[0]!.text;
    const numbered = withoutReminders(read).split("\n");
    for (const line of numbered) {
      const [, n = "", text] = /^(\d+)\t(.*)$/.exec(line) ?? [];
      assert.equal(text, fileLine(Number(n)), `Read line ${JSON.stringify(line.slice(0, 60))}`);
    }
    const context = /\n<system-reminder>\nPostToolUse:Read hook additional context: ([\s\S]*?)\n<\/system-reminder>/.exec(read)?.[1] ?? "";
    assert.match(context, /^\[loupe\] more of this read follows, each line numbered as in the file:\n\[loupe\] lines /);
    const beside = context.split("\n").filter((line) => !line.startsWith("[loupe] "));
    assert.ok(beside.length > 0, "the view's tail is beside the numbered lines");
    for (const line of beside) {
      const [, n = "", text] = /^(\d+)\t(.*)$/.exec(line) ?? [];
      assert.equal(text, fileLine(Number(n)), `Read context line ${JSON.stringify(line.slice(0, 60))}`);
    }
    // Claude Code paged the 3,000-line read at line 1,434; the hook projected the whole file, so the view ends at its true end.
    assert.equal(beside.at(-1), `${String(LONG_FILE_LINES)}\t${fileLine(LONG_FILE_LINES)}`);

    const asked = withoutReminders(results(run, "Bash")[2]!.text);
    assert.match(asked, /\n\[loupe\] lines [\d,]+–[\d,]+ of big\.txt \(3,000 lines\) omitted/, "loupe exec projected the read");
    assert.ok(asked.split("\n").includes(fileLine(1777)), "the line the model's message named, from the middle of the file");
    const again = withoutReminders(results(run, "Bash")[4]!.text).split("\n");
    assert.ok(again.includes(fileLine(1234)), "the line an earlier call's arguments named (the intent's earlier messages)");

    const grep = withoutReminders(results(run, "Grep")[0]!.text);
    // Claude Code stops a Grep at 250 lines itself; the pre-tool hook lifted that, so the view is of all 300 matches.
    assert.match(grep, /^\[loupe\] 300 matches in big\.txt\n/);
    assert.ok(grep.split("\n").includes(`big.txt:2887:${fileLine(2887)}`), "the match the model's message named, past the 250th");
    assert.doesNotMatch(grep, /Showing results with pagination/);
    const hits = grep.split("\n").filter((line) => line.startsWith("big.txt:"));
    for (const line of hits) assert.equal(line, `big.txt:${line.split(":")[1] ?? ""}:${fileLine(Number(line.split(":")[1]))}`);
    assert.ok(hits.length > 20 && omissionNotices(grep).length === 1);
    const files = withoutReminders(results(run, "Grep")[1]!.text).split("\n");
    assert.equal(files[0], "Found 400 files", "Claude Code counts the whole list once its cut is lifted");
    // A list of files: projected as a listing, as Glob's is.
    assert.match(files[1] ?? "", /^\[loupe\] 400 entries in /);
    assert.ok(
      files.some((line) => line.endsWith("modules/mod_0333.py")),
      "the file the model's message named",
    );
    assert.ok(files.length < 300 && omissionNotices(files.join("\n")).length >= 1, String(files.length));
    checkTrackerView(withoutReminders(results(run, "mcp__tracker__search")[0]!.text));

    const [fromBash, fromRead] = results(run, "mcp__loupe__read_result");
    checkRecovered(fromBash!.text, omitted.continuation, longOutputLine);
    const [readContinuation] = continuationsIn(read);
    checkRecovered(fromRead!.text, readContinuation!, fileLine);
  });

  it("vendor proxy: ANTHROPIC_BASE_URL at Loupe, the README's rule cuts Bash results to whole lines, the same bytes on every request", async (t) => {
    if (!(await runtimeAvailable(t, "claude"))) return;
    await putSourceLimit(suite.loupe, "claude-code-app", README_RULE);
    const mark = logMark(suite);
    const run = await runClaudeCode(suite.vendor, {
      prompt: "Run the checks.",
      workFiles: SUITE_WORK_FILES,
      baseUrl: loupeHttp(suite.loupe),
      headers: { "x-loupe-source": "claude-code-app" },
      mcpServers: { tracker: trackerMcp() },
      onStart: ({ work }) => suite.vendor.setScript(scriptSteps([...steps(work), callTool("Bash", { command: seqCommand(3000), description: "Count" })])),
    });
    t.diagnostic(describeRun(run));
    t.diagnostic(loupeProblems(suite, mark));
    assert.equal(run.exitCode, 0, run.stderr);
    assert.ok(
      run.requests.every((entry) => entry.headers["x-loupe-source"] === undefined && entry.headers["x-api-key"] === "sk-ant-loupe-test"),
      "Loupe's header stays with Loupe; the key goes on",
    );

    const [long, failing, counted] = results(run, "Bash");
    // Over ~25 KB Claude Code saves the output and sends a 2 KB preview: under the rule's limit, it goes as Claude Code wrote it.
    assert.match(
      long!.text,
      /^<persisted-output>\nOutput too large \(595\.7KB\)\. Full output saved to: \S+\/tool-results\/\w+\.txt\n\nPreview \(first 2KB\):\n00001 INFO /,
    );
    assert.doesNotMatch(long!.text, /\[loupe/);
    // A failed command's output Claude Code cuts itself (its head and tail around "... [N characters truncated] ..."): the cut counts that too.
    const failingCut = cutNoticeOf(failing!.text);
    const removed = /\n\.\.\. \[([\d,]+) characters truncated\] \.\.\.\n\[loupe: /.exec(failing!.text);
    assert.ok(removed, "Claude Code's marker line is kept, before the notice");
    assert.equal(clauseParts(failingCut.clause).runtime, `; the runtime had already removed ${Number(removed[1]).toLocaleString("en-US")} characters`);
    assert.match(failing!.text, /^Exit code 1\ntest_double_001 [\s\S]*test_double_007 \(test_numbers\.NumbersTest\.test_double_007\) \.\.\. FAIL\n/);
    // Claude Code kept only the first ~30,000 characters of the 40 KB before its own cut: the failures and summary never reach the proxy.
    assert.doesNotMatch(failing!.text, /FAILED \(failures=3\)/);
    // 3,000 short lines stay under Claude Code's own limit and are cut by Loupe: whole lines around one notice.
    const cut = cutNoticeOf(counted!.text);
    // Lines of the result as Claude Code sent it: the 3,000 and its own reminder after them.
    assert.equal(cut.total, 3000 + counted!.text.slice(withoutReminders(counted!.text).length).split("\n").length - 1);
    const kept = withoutReminders(counted!.text)
      .split("\n")
      .filter((line) => !line.startsWith("[loupe:"));
    const expected = [
      ...Array.from({ length: cut.first - 1 }, (_, index) => String(index + 1)),
      ...Array.from({ length: 3000 - cut.last }, (_, index) => String(cut.last + index + 1)),
    ];
    assert.deepEqual(kept, expected);
    assert.ok(withoutReminders(counted!.text).length <= README_RULE.keep_limit_chars);

    for (const tool of ["Read", "Grep", "mcp__tracker__search"]) assert.doesNotMatch(results(run, tool)[0]!.text, /\[loupe/, `${tool} is not in keep_tools`);
    checkSameBytes(run, [failing!.callId, results(run, "Read")[0]!.callId]);
    const rule = await getSourceLimit(suite.loupe, "claude-code-app");
    assert.equal(rule["keep_tools_matched"], true);
  });

  it("its session transcript replays in loupe eval: a row per answered call, the model's next message as its next action", async (t) => {
    if (!(await runtimeAvailable(t, "claude"))) return;
    const run = await runClaudeCode(suite.vendor, {
      prompt: SESSION_PROMPT,
      workFiles: SUITE_WORK_FILES,
      keepSandbox: true,
      onStart: () => suite.vendor.setScript(sessionScript("Bash", (command) => ({ command, description: "Run it" }))),
    });
    t.diagnostic(describeRun(run));
    // Claude Code opens a failed command's result with "Exit code N"; it says nothing for one that succeeded.
    await checkSavedSession(run, ".claude/projects", { tool: "Bash", agentSystem: /^claude-code/, exitCodes: [0, 2] });
  });
});
