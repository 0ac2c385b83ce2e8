import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { runHook, runLoupeCommand } from "../support/run-loupe-command.js";

const run = promisify(execFile);
// A failing test run: 2,000 passing lines, then the failures and the summary (real programs: bash, seq).
const FAILING_RUN = `for i in $(seq 1 2000); do echo "test_case_$i ... ok"; done; echo "FAIL: test_parser_handles_unicode" >&2; echo "AssertionError: 3 != 4" >&2; echo "Ran 2001 tests: FAILED (failures=1)"; exit 1`;

function continuationOf(view: string): Record<string, unknown> {
  const match = /recover with (\{[^}]*\})/.exec(view);
  assert.ok(match, view.slice(0, 400));
  return JSON.parse(match[1] ?? "{}") as Record<string, unknown>;
}

describe("loupe exec and the pre-tool-use hook", () => {
  let loupe: EmbeddedLoupe;
  let env: Record<string, string>;
  let work: string;

  before(async () => {
    loupe = await startEmbeddedLoupe();
    env = { LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}` };
    work = await mkdtemp(join(tmpdir(), "loupe-exec-"));
  });
  after(async () => {
    await loupe.stop();
    await rm(work, { recursive: true, force: true });
  });

  it("runs a failing command, prints Loupe's view with the failure and the summary, and exits with its status", async () => {
    const exec = await runLoupeCommand(["exec", "--session", "exec-e2e", "--", FAILING_RUN], "", env);
    assert.equal(exec.code, 1, exec.stderr);
    assert.match(exec.stdout, /^\[loupe\] \$ for i in .* · exit 1 \(failed\)/);
    assert.match(exec.stdout, /FAIL: test_parser_handles_unicode\nAssertionError: 3 != 4\n/);
    assert.match(exec.stdout, /Ran 2001 tests: FAILED \(failures=1\)/);
    const continuation = continuationOf(exec.stdout);
    const recovered = await runLoupeCommand(["recover", JSON.stringify(continuation), "--all"], "", env);
    const expected = Array.from(
      { length: Number(continuation["end_line"]) - Number(continuation["start_line"]) + 1 },
      (_, index) => `test_case_${String(Number(continuation["start_line"]) + index)} ... ok\n`,
    ).join("");
    assert.equal(recovered.stdout, expected);
  });

  it("prints the output as it is, and still exits with its status, when Loupe cannot be reached", async () => {
    const exec = await runLoupeCommand(["exec", "--", "seq 1 3; exit 7"], "", { LOUPE_ADDR: "127.0.0.1:1" });
    assert.equal(exec.code, 7);
    assert.equal(exec.stdout, "1\n2\n3\n");
    assert.match(exec.stderr, /^loupe exec: projection failed .*the output follows as it is/);
  });

  it("pre-tool-use rewrites a Bash command so it runs in the agent's own shell, is projected, and keeps its status", async () => {
    const failing = FAILING_RUN.replace("; exit 1", "; false");
    const hook = await runHook(
      "pre-tool-use",
      {
        session_id: "exec-e2e",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: `cd ${work} && ${failing}`, description: "run the tests" },
      },
      env,
    );
    assert.equal(hook.code, 0, hook.stderr);
    const output = JSON.parse(hook.stdout) as {
      hookSpecificOutput: { hookEventName: string; updatedInput: { command: string; description: string }; permissionDecision?: string };
    };
    assert.equal(output.hookSpecificOutput.hookEventName, "PreToolUse");
    assert.equal(output.hookSpecificOutput.permissionDecision, undefined, "the agent's own permission rules still decide");
    assert.equal(output.hookSpecificOutput.updatedInput.description, "run the tests");
    // As the runtime would: the new command in a shell, then something that depends on the shell's state.
    // (From the checkout: the loupe under test runs from source with `--import tsx`, which resolves from there.)
    const shell = await run("bash", ["-c", `${output.hookSpecificOutput.updatedInput.command}\necho "status=$? cwd=$(pwd)"`], {
      env: { ...process.env, ...env },
      cwd: repoRoot(),
    }).catch((error: { stdout: string }) => error);
    const printed = shell.stdout;
    assert.match(printed, /^\[loupe\] \$ cd .* · exit 1 \(failed\)/);
    assert.match(printed, /FAIL: test_parser_handles_unicode/);
    assert.ok(printed.trimEnd().endsWith(`status=1 cwd=${work}`), printed.slice(-200));
  });

  it("pre-tool-use hands loupe exec the transcript: the view keeps the line the assistant's message names", async () => {
    // The name is in the output only: words of the command itself are not looked for (the message that made the call names them).
    const table = join(work, "table.txt");
    await writeFile(
      table,
      Array.from({ length: 6000 }, (_, index) => (index === 4320 ? "row 4321 resolve_quota_table failed" : `row ${String(index + 1)} of the table`)).join(
        "\n",
      ) + "\n",
    );
    const command = `cat ${table}`;
    const transcript = join(work, "transcript.jsonl");
    const lines = [
      { type: "user", message: { role: "user", content: "Find out why resolve_quota_table fails" } },
      {
        type: "assistant",
        message: { id: "m1", role: "assistant", content: [{ type: "text", text: "Let me list the table and look for resolve_quota_table." }] },
      },
      { type: "assistant", message: { id: "m1", role: "assistant", content: [{ type: "tool_use", id: "toolu_exec", name: "Bash", input: { command } }] } },
    ];
    await writeFile(transcript, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const rewritten = async (transcriptPath: string): Promise<string> => {
      const payload = {
        session_id: "exec-intent",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_use_id: "toolu_exec",
        transcript_path: transcriptPath,
        tool_input: { command },
      };
      const hook = await runHook("pre-tool-use", payload, env);
      const wrapped = (JSON.parse(hook.stdout) as { hookSpecificOutput: { updatedInput: { command: string } } }).hookSpecificOutput.updatedInput.command;
      return (await run("bash", ["-c", wrapped], { env: { ...process.env, ...env }, cwd: repoRoot() })).stdout;
    };
    assert.match(await rewritten(transcript), /\nrow 4321 resolve_quota_table failed\n/);
    assert.doesNotMatch(await rewritten(join(work, "missing.jsonl")), /row 4321/, "without the transcript the middle line is not in the view");
  });

  it("pre-tool-use hands loupe exec what a plugin passed of the call (OpenCode's loupe_context), in a private file it removes", async () => {
    const table = join(work, "plugin-table.txt");
    await writeFile(
      table,
      Array.from({ length: 6000 }, (_, index) => (index === 2220 ? "row 2221 zebra_quota_table failed" : `row ${String(index + 1)} of the table`)).join("\n") +
        "\n",
    );
    const payload = {
      session_id: "exec-plugin",
      hook_event_name: "tool.execute.before",
      tool_name: "bash",
      tool_use_id: "call_7",
      tool_input: { command: `cat ${table}` },
      loupe_context: { task: "Find out why zebra_quota_table fails", asking: "", model: "gpt-4.1" },
    };
    const hook = await runLoupeCommand(["hook", "pre-tool-use", "--runtime", "opencode"], JSON.stringify(payload), env);
    const wrapped = (JSON.parse(hook.stdout) as { updatedInput: { command: string } }).updatedInput.command;
    const contextFile = /--context-file '([^']+)'/.exec(wrapped)?.[1] ?? "";
    assert.match(contextFile, /loupe-exec-[0-9a-f]+\.context$/);
    assert.equal((await stat(contextFile)).mode & 0o777, 0o600);
    const printed = (await run("bash", ["-c", wrapped], { env: { ...process.env, ...env }, cwd: repoRoot() })).stdout;
    assert.match(printed, /\nrow 2221 zebra_quota_table failed\n/);
    await assert.rejects(stat(contextFile), { code: "ENOENT" });
  });

  it("pre-tool-use runs a command that could end the shell (exit) in a subshell, so its output is still reported", async () => {
    const hook = await runHook(
      "pre-tool-use",
      { session_id: "exec-e2e", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: FAILING_RUN } },
      env,
    );
    const command = (JSON.parse(hook.stdout) as { hookSpecificOutput: { updatedInput: { command: string } } }).hookSpecificOutput.updatedInput.command;
    const shell = await run("bash", ["-c", `${command}\necho "status=$?"`], { env: { ...process.env, ...env }, cwd: repoRoot() });
    assert.match(shell.stdout, /Ran 2001 tests: FAILED \(failures=1\)/);
    assert.ok(shell.stdout.trimEnd().endsWith("status=1"));
  });

  it("pre-tool-use lifts Claude Code's 250-line cut of a Grep that named no head_limit, so the post-tool hook gets the whole search", async () => {
    const input = { pattern: "compute\\(", path: work, output_mode: "content", "-n": true };
    const payload = { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Grep", tool_input: input };
    const hook = await runHook("pre-tool-use", payload, env);
    assert.equal(hook.code, 0, hook.stderr);
    assert.deepEqual(JSON.parse(hook.stdout), { hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { ...input, head_limit: 10_000 } } });
    const unlimited = await runHook("pre-tool-use", payload, { ...env, LOUPE_GREP_LINES: "0" });
    assert.equal(
      (JSON.parse(unlimited.stdout) as { hookSpecificOutput: { updatedInput: { head_limit: number } } }).hookSpecificOutput.updatedInput.head_limit,
      0,
    );
    const chosen = await runHook("pre-tool-use", { ...payload, tool_input: { ...input, head_limit: 30 } }, env);
    assert.equal(chosen.stdout, "");
    // With Loupe down nothing would cut the larger search: Claude Code's own cut stays.
    const down = await runHook("pre-tool-use", payload, { LOUPE_ADDR: "127.0.0.1:9" });
    assert.equal(down.stdout, "");
    assert.match(down.stderr, /nothing listens where Loupe should be; Grep keeps Claude Code's own cut/);
  });

  it("pre-tool-use leaves background commands, other tools and wrapped commands alone", async () => {
    for (const [tool, input] of [
      ["Bash", { command: "npm run dev", run_in_background: true }],
      ["Read", { file_path: "/etc/hosts" }],
      ["Grep", { pattern: "x", output_mode: "files_with_matches", head_limit: 100 }],
      ["Bash", { command: '__loupe_out="$(mktemp)"; echo' }],
    ] as const) {
      const hook = await runHook("pre-tool-use", { session_id: "s", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input }, env);
      assert.equal(hook.code, 0);
      assert.equal(hook.stdout, "", JSON.stringify(input));
    }
  });
  // A log where one worker of 3,000 failed, in the middle: a blind or head/tail view leaves it out.
  const WORKERS = `for i in $(seq 1 3000); do if [ $i -eq 1737 ]; then echo "worker_$i failed: checksum mismatch in shard_$i"; else echo "worker_$i finished batch"; fi; done`;

  it("loupe project and loupe exec take the agent's intent (--intent, --intent-file) and model: the line it names is in the view", async () => {
    const { stdout: log } = await run("bash", ["-c", WORKERS], { maxBuffer: 16 * 1024 * 1024 });
    const intent = "The nightly run reports one failure. Why did worker_1737 fail?";
    const project = (args: string[]) => runLoupeCommand(["project", "--tool", "bash", "--command", "cat nightly.log", "--json", ...args], log, env);
    const usageOf = (stdout: string) => JSON.parse(stdout) as { parts: Array<{ text?: string }>; usage: { projectedTokens: number } };
    const blind = await project([]);
    assert.equal(blind.code, 0, blind.stderr);
    assert.doesNotMatch(blind.stdout, /worker_1737 failed/);
    const guided = await project(["--intent", intent]);
    assert.equal(guided.code, 0, guided.stderr);
    assert.match(guided.stdout, /worker_1737 failed: checksum mismatch in shard_1737/);
    await writeFile(join(work, "intent.txt"), intent);
    const fromFile = await project(["--intent-file", join(work, "intent.txt")]);
    assert.deepEqual(usageOf(fromFile.stdout).parts, usageOf(guided.stdout).parts, "the same intent gives the same view");
    // A named model with its own tokenizer has no margin for an unknown one: its view uses more of the budget.
    const named = await project(["--intent", intent, "--model", "gpt-4o"]);
    assert.ok(usageOf(named.stdout).usage.projectedTokens > usageOf(guided.stdout).usage.projectedTokens, named.stdout.slice(0, 300));
    const both = await project(["--intent", intent, "--intent-file", join(work, "intent.txt")]);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /give the intent once/);

    const exec = await runLoupeCommand(["exec", "--intent", intent, "--", WORKERS], "", env);
    assert.equal(exec.code, 0, exec.stderr);
    assert.match(exec.stdout, /worker_1737 failed: checksum mismatch in shard_1737/);
  });
});
