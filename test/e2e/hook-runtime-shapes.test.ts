import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { runHook } from "../support/run-loupe-command.js";

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; updatedToolOutput: Record<string, unknown> | unknown[]; updatedMCPToolOutput?: unknown };
}

const payload = (event: string, toolName: string, toolInput: unknown, extra: Record<string, unknown>) => ({
  session_id: "shapes",
  hook_event_name: event,
  tool_name: toolName,
  tool_input: toolInput,
  tool_use_id: "toolu_1",
  ...extra,
});

describe("loupe hook post-tool-use on what the runtimes really hand it", () => {
  let loupe: EmbeddedLoupe;
  let env: Record<string, string>;
  let scratch: string;

  before(async () => {
    loupe = await startEmbeddedLoupe();
    env = { LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}` };
    scratch = await mkdtemp(join(tmpdir(), "loupe-hook-shapes-"));
  });
  after(async () => {
    await loupe.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it("projects the whole saved output when the runtime cut stdout (persistedOutputPath), and never hands the persisted fields back", async () => {
    const whole = numberedLines(5000);
    const path = join(scratch, "bash-output.txt");
    await writeFile(path, whole);
    const response = {
      stdout: whole.slice(0, 29_999),
      stderr: "",
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
      persistedOutputPath: path,
      persistedOutputSize: whole.length,
    };
    const run = await runHook("post-tool-use", payload("PostToolUse", "Bash", { command: "./gen.sh" }, { tool_response: response }), env);
    assert.equal(run.code, 0, run.stderr);
    const updated = (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput.updatedToolOutput as Record<string, unknown>;
    assert.deepEqual(Object.keys(updated).sort(), ["interrupted", "isImage", "noOutputExpected", "stderr", "stdout"]);
    const view = updated["stdout"] as string;
    assert.match(view, /\[loupe\] lines [\d,]+–[\d,]+ of 5,000 omitted/, "the notice counts the whole output, not the runtime's cut");
    assert.ok(view.trimEnd().endsWith(whole.trimEnd().split("\n").at(-1) ?? "?"), "the tail is the output's true last line");
  });

  it("reads the intent from Claude Code's transcript: the line the agent is after reaches the view", async () => {
    const log = numberedLines(6000).replace(
      "row 03141: the quick brown fox jumps over the lazy dog",
      "row 03141: ERROR resolve_lookup_table failed for key 'zebra_quota'",
    );
    const transcript = join(scratch, "transcript.jsonl");
    const lines = [
      { type: "user", message: { role: "user", content: "Find why resolve_lookup_table fails for zebra_quota" } },
      {
        type: "assistant",
        message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "Let me look for the resolve_lookup_table error in the service log." }] },
      },
      {
        type: "assistant",
        message: { id: "msg_1", role: "assistant", content: [{ type: "tool_use", id: "toolu_intent", name: "Bash", input: { command: "cat service.log" } }] },
      },
    ];
    await writeFile(transcript, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const response = { stdout: log, stderr: "", interrupted: false, isImage: false };
    const base = { tool_response: response, tool_use_id: "toolu_intent" };
    const withIntent = await runHook(
      "post-tool-use",
      payload("PostToolUse", "Bash", { command: "cat service.log" }, { ...base, transcript_path: transcript }),
      env,
    );
    const stdout = (run: { stdout: string }) =>
      ((JSON.parse(run.stdout) as HookOutput).hookSpecificOutput.updatedToolOutput as Record<string, string>)["stdout"] ?? "";
    assert.match(stdout(withIntent), /row 03141: ERROR resolve_lookup_table failed/);
    const without = await runHook(
      "post-tool-use",
      payload("PostToolUse", "Bash", { command: "cat service.log" }, { ...base, transcript_path: join(scratch, "missing.jsonl") }),
      env,
    );
    assert.doesNotMatch(stdout(without), /row 03141/, "without a transcript the middle line is not in the view");
  });

  it("gives a Read the lines the intent points at, beside the lines Claude Code numbers, each under its file number", async () => {
    // A read of file lines 1,001–7,000 (offset 1001): the runtime numbers content line i as 1,000 + i.
    const content = numberedLines(6000).replace(
      "row 03141: the quick brown fox jumps over the lazy dog",
      "row 03141: raise QuotaError('zebra_quota exhausted in resolve_lookup_table')",
    );
    const transcript = join(scratch, "read-transcript.jsonl");
    const lines = [
      { type: "user", message: { role: "user", content: "Find where resolve_lookup_table raises QuotaError for zebra_quota" } },
      {
        type: "assistant",
        message: { id: "msg_2", role: "assistant", content: [{ type: "text", text: "Let me read the module around resolve_lookup_table." }] },
      },
      {
        type: "assistant",
        message: {
          id: "msg_2",
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_read", name: "Read", input: { file_path: "/w/lookup.txt", offset: 1001 } }],
        },
      },
    ];
    await writeFile(transcript, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const file = { filePath: "/w/lookup.txt", content, numLines: 6000, startLine: 1001, totalLines: 7000 };
    const run = await runHook(
      "post-tool-use",
      payload(
        "PostToolUse",
        "Read",
        { file_path: "/w/lookup.txt", offset: 1001 },
        { tool_response: { type: "text", file }, tool_use_id: "toolu_read", transcript_path: transcript },
      ),
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const output = (JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: { file: Record<string, unknown> }; additionalContext?: string } })
      .hookSpecificOutput;
    const readLines = content.split("\n");
    const firstLine = output.updatedToolOutput.file["startLine"] as number;
    const shown = (output.updatedToolOutput.file["content"] as string).split("\n");
    assert.equal(output.updatedToolOutput.file["numLines"], shown.length);
    shown.forEach((line, index) => assert.equal(line, readLines[firstLine - 1001 + index]));
    const context = output.additionalContext ?? "";
    assert.ok(context.split("\n").includes(`4141\t${readLines[3140] ?? ""}`), "the line the intent names, under its file number (1,000 + 3,141)");
    for (const line of context.split("\n").filter((text) => !text.startsWith("[loupe] "))) {
      const [, n = "", text] = /^(\d+)\t(.*)$/.exec(line) ?? [];
      assert.equal(text, readLines[Number(n) - 1001], `context line ${JSON.stringify(line.slice(0, 40))}`);
    }
  });

  it("projects the whole file when Claude Code paged a Read, so the view ends at the file's true end", async () => {
    const text = numberedLines(3000);
    const path = join(scratch, "paged.txt");
    await writeFile(path, text);
    const fileLines = text.split("\n");
    // Claude Code's page of a read over 25,000 tokens: its first lines, and the file's count (3,001 with the final newline).
    const file = { filePath: path, content: fileLines.slice(0, 1434).join("\n"), numLines: 1434, startLine: 1, totalLines: 3001 };
    const read = (response: unknown) =>
      runHook("post-tool-use", payload("PostToolUse", "Read", { file_path: path }, { tool_response: response, cwd: scratch }), env);
    const contextOf = (run: { stdout: string }) =>
      (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext?: string } }).hookSpecificOutput.additionalContext ?? "";
    const numbered = (context: string) => context.split("\n").filter((line) => !line.startsWith("[loupe] "));
    const paged = await read({ type: "text", file });
    assert.equal(paged.code, 0, paged.stderr);
    const lines = numbered(contextOf(paged));
    for (const line of lines) {
      const [, n = "", rest] = /^(\d+)\t(.*)$/.exec(line) ?? [];
      assert.equal(rest, fileLines[Number(n) - 1]);
    }
    assert.equal(lines.at(-1), `3000\t${fileLines[2999] ?? ""}`, "the view's last line is the file's");
    assert.match(contextOf(paged), /\[loupe\] lines [\d,]+–[\d,]+ of 3,000 omitted/);
    // A file that changed since the runtime read it: the lines the runtime gave are projected, as they are.
    await writeFile(path, text.replace("row 00010:", "row 0001O:"));
    const changed = await read({ type: "text", file });
    assert.equal(numbered(contextOf(changed)).at(-1), `1434\t${fileLines[1433] ?? ""}`);
  });

  it("says why it leaves a PostToolUseFailure alone (it cannot replace output)", async () => {
    const run = await runHook(
      "post-tool-use",
      payload("PostToolUseFailure", "Bash", { command: "make test" }, { error: "Exit code 1\n" + numberedLines(100) }),
      env,
    );
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(
      run.stderr,
      /^loupe hook: PostToolUseFailure cannot replace a tool's output \[tool=Bash\]; the pre-tool-use hook runs shell commands through loupe exec/,
    );
  });

  it("projects a Grep's file list (its default mode) as a listing, one path a line, put back as the list Claude Code shows under its own count", async () => {
    const filenames = Array.from({ length: 1500 }, (_, index) => `/work/src/pkg_${String(index % 37)}/module_${String(index)}.py`);
    const response = { mode: "files_with_matches", filenames, numFiles: filenames.length };
    const run = await runHook("post-tool-use", payload("PostToolUse", "Grep", { pattern: "import", head_limit: 10_000 }, { tool_response: response }), env);
    assert.equal(run.code, 0, run.stderr);
    const updated = (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput.updatedToolOutput as Record<string, unknown>;
    assert.equal(updated["mode"], "files_with_matches");
    assert.equal(updated["numFiles"], 1500, "Claude Code's count of the files stays the search's");
    const shown = updated["filenames"] as string[];
    // A list of files, as Glob's is: projected as a listing (how many paths in which folders), not as 1,500 matches.
    assert.match(shown[0] ?? "", /^\[loupe\] 1,500 entries in 37 directories; /);
    const notices = shown.filter((line) => line.startsWith("[loupe] "));
    const paths = shown.filter((line) => !line.startsWith("[loupe] "));
    assert.ok(paths.length > 20 && paths.length < 400, String(paths.length));
    for (const path of paths) assert.ok(filenames.includes(path), path);
    assert.equal(paths.at(-1), filenames.at(-1), "the list's true end");
    assert.ok(
      notices.some((line) => /lines [\d,]+–[\d,]+ of 1,500 omitted[^;]*; recover with \{"result_id":"r_/.test(line)),
      notices.join("\n"),
    );
  });

  it("projects Glob's list of paths the same way, keeping its other fields", async () => {
    const filenames = Array.from({ length: 1500 }, (_, index) => `/work/src/pkg_${String(index % 37)}/module_${String(index)}.py`);
    const response = { filenames, numFiles: filenames.length, truncated: false, durationMs: 12 };
    const run = await runHook("post-tool-use", payload("PostToolUse", "Glob", { pattern: "**/*.py" }, { tool_response: response }), env);
    assert.equal(run.code, 0, run.stderr);
    const updated = (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput.updatedToolOutput as Record<string, unknown>;
    assert.deepEqual([updated["numFiles"], updated["truncated"], updated["durationMs"]], [1500, false, 12]);
    const shown = updated["filenames"] as string[];
    assert.ok(shown.length < 400 && shown.some((line) => line.startsWith("[loupe] ")), String(shown.length));
    for (const path of shown.filter((line) => !line.startsWith("[loupe] "))) assert.ok(filenames.includes(path), path);
  });

  it("sends an MCP tool's JSON as JSON, so its view is valid JSON with pointer continuations", async () => {
    const items = Array.from({ length: 400 }, (_, index) => ({
      id: `issue-${String(index)}`,
      title: `Crash in parser when reading file ${String(index)}`,
      labels: ["bug", "parser"],
      body: "x".repeat(200),
    }));
    const blocks = [{ type: "text", text: JSON.stringify({ total: items.length, items }) }];
    const run = await runHook("post-tool-use", payload("PostToolUse", "mcp__tracker__search", { q: "crash" }, { tool_response: blocks }), env);
    assert.equal(run.code, 0, run.stderr);
    const updated = (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput.updatedToolOutput as Array<{ type: string; text: string }>;
    const view = JSON.parse(updated[0]?.text ?? "") as Record<string, unknown>;
    assert.equal(view["total"], 400);
    assert.match(updated[0]?.text ?? "", /"json_pointer":"\/items"/);
  });
});
