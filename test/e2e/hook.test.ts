import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTokenCounter } from "@loupe/projection";
import type { Omission } from "@loupe/proto";
import { repoRoot } from "@loupe/testing";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { recoverOmission } from "../support/recover-omission.js";
import { runHook as runHookCommand } from "../support/run-loupe-command.js";

const REPO_ROOT = repoRoot();
const runHook = (payload: unknown, env: Record<string, string>) => runHookCommand("post-tool-use", payload, env);

function basePayload(toolName: string, toolInput: unknown, toolResponse: unknown): Record<string, unknown> {
  return {
    session_id: `hook-e2e-${String(process.pid)}-${String(Date.now())}`,
    transcript_path: "/tmp/transcript.jsonl",
    cwd: REPO_ROOT,
    permission_mode: "default",
    hook_event_name: "PostToolUse",
    tool_name: toolName,
    tool_input: toolInput,
    tool_response: toolResponse,
    tool_use_id: "toolu_01HOOKTEST",
  };
}

function longLog(lines: number): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++)
    out.push(`${String(i).padStart(5, "0")} INFO worker-${String(i % 13)} processed batch ${String((i * 7919) % 100_000)} in ${String(i % 997)} ms`);
  return out.join("\n") + "\n";
}

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; updatedToolOutput: unknown; updatedMCPToolOutput?: unknown; additionalContext?: string };
}

describe("loupe hook post-tool-use", () => {
  let loupe: EmbeddedLoupe;
  let env: Record<string, string>;
  const tokens = createTokenCounter();

  before(async () => {
    loupe = await startEmbeddedLoupe();
    env = { LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}` };
  });
  after(async () => {
    await loupe.stop();
  });

  it("replaces a 5,000-line Bash stdout with a view in the Bash shape", async () => {
    const response = { stdout: longLog(5000), stderr: "", interrupted: false, isImage: false };
    const run = await runHook(basePayload("Bash", { command: "./build.sh", description: "build" }, response), env);
    assert.equal(run.code, 0, run.stderr);
    const output = JSON.parse(run.stdout) as HookOutput;
    assert.equal(output.hookSpecificOutput.hookEventName, "PostToolUse");
    const updated = output.hookSpecificOutput.updatedToolOutput as Record<string, unknown>;
    assert.deepEqual(Object.keys(updated).sort(), ["interrupted", "isImage", "stderr", "stdout"]);
    assert.equal(updated["interrupted"], false);
    assert.equal(updated["isImage"], false);
    assert.equal(updated["stderr"], "");
    const view = updated["stdout"] as string;
    assert.match(view, /\[loupe/);
    assert.match(view, /result_id/);
    assert.ok(tokens.count(view) <= 2200, `view has ${String(tokens.count(view))} tokens`);
    assert.ok(view.length < response.stdout.length / 4);
  });

  it("prints nothing and exits 0 for a small result", async () => {
    const run = await runHook(basePayload("Bash", { command: "echo hi" }, { stdout: "hi\n", stderr: "", interrupted: false, isImage: false }), env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "");
  });

  it("passes through with a warning when Loupe is down, within the deadline", async () => {
    const response = { stdout: longLog(5000), stderr: "", interrupted: false, isImage: false };
    const run = await runHook(basePayload("Bash", { command: "./build.sh" }, response), { LOUPE_ADDR: "127.0.0.1:1" });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /loupe hook: projection failed.*passing the original through/);
    assert.ok(run.elapsedMs < 2500 + 1500, `took ${String(run.elapsedMs)} ms (includes tsx start-up)`);
  });

  it("passes an unknown response shape through with a warning", async () => {
    const run = await runHook(basePayload("Weird", {}, { rows: [1, 2, 3], meta: { pages: 7 } }), env);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /unknown tool_response shape \[tool=Weird\]/);
  });

  it("passes malformed stdin through with a warning", async () => {
    const run = await runHook("{not json", env);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /stdin is not JSON/);
  });

  it("replaces file.content of a Read result with lines the runtime numbers truly, and gives the rest of the view beside them under their file numbers", async () => {
    const content = longLog(5000);
    const fileLines = content.split("\n");
    const file = { filePath: "/repo/logs/build.log", content, numLines: 5000, startLine: 1, totalLines: 5000 };
    const run = await runHook(basePayload("Read", { file_path: "/repo/logs/build.log" }, { type: "text", file }), env);
    assert.equal(run.code, 0, run.stderr);
    const output = (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput;
    const updated = output.updatedToolOutput as { type: string; file: Record<string, unknown> };
    assert.equal(updated.type, "text");
    assert.equal(updated.file["filePath"], "/repo/logs/build.log");
    assert.equal(updated.file["totalLines"], 5000);
    assert.equal(updated.file["startLine"], 1);
    const kept = (updated.file["content"] as string).split("\n");
    assert.equal(updated.file["numLines"], kept.length);
    // The runtime shows line i of content as startLine + i: each must be the file's line of that number, the notice none of them.
    assert.deepEqual(kept, fileLines.slice(0, kept.length));
    // Beside them: Loupe's notices and the rest of its view (the log's tail), each line under its true number.
    const context = (output.additionalContext ?? "").split("\n");
    assert.equal(context[0], "[loupe] more of this read follows, each line numbered as in the file:");
    assert.match(
      context[1] ?? "",
      new RegExp(
        `^\\[loupe\\] lines ${String(kept.length + 1)}–[\\d,]+ of 5,000 omitted .*recover with \\{"result_id":"r_[^"]+","start_line":${String(kept.length + 1)},`,
      ),
    );
    const numbered = context.filter((line) => !line.startsWith("[loupe] "));
    assert.ok(numbered.length > 5);
    for (const line of numbered) {
      const [, n = "", text] = /^(\d+)\t(.*)$/.exec(line) ?? [];
      assert.equal(text, fileLines[Number(n) - 1], `context line ${JSON.stringify(line.slice(0, 40))}`);
    }
    assert.equal(numbered.at(-1), `5000\t${fileLines[4999] ?? ""}`, "the view's tail is the read's last line");
    assert.ok((output.additionalContext ?? "").length < 9000);
    assert.ok((updated.file["content"] as string).length + (output.additionalContext ?? "").length < content.length / 4);

    // Recoverable as delivered: the lines shown (numbered by the runtime, and beside them) and the ranges the notices
    // beside them name, each read back through Recover, give every line of the read exactly once.
    const resultId = /"result_id":"(r_[^"]+)"/.exec(output.additionalContext ?? "")?.[1] ?? "";
    const rebuilt = new Map<number, string>(kept.map((line, index) => [index + 1, line]));
    for (const line of numbered) rebuilt.set(Number(line.split("\t")[0]), line.slice(line.indexOf("\t") + 1));
    for (const [, start = "", end = ""] of (output.additionalContext ?? "").matchAll(/"start_line":(\d+),"end_line":(\d+)/g)) {
      const recovered = await recoverOmission(loupe.client, {
        continuationJson: JSON.stringify({ result_id: resultId, start_line: Number(start), end_line: Number(end) }),
      } as Omission);
      recovered.text
        .split("\n")
        .slice(0, Number(end) - Number(start) + 1)
        .forEach((line, index) => {
          assert.ok(!rebuilt.has(Number(start) + index), `line ${String(Number(start) + index)} shown and omitted`);
          rebuilt.set(Number(start) + index, line);
        });
    }
    assert.deepEqual(
      Array.from({ length: 5000 }, (_, index) => rebuilt.get(index + 1)),
      fileLines.slice(0, 5000),
    );
  });

  it("leaves the answers of Loupe's own MCP tools alone (they are the omitted text, already within a budget)", async () => {
    const blocks = [{ type: "text", text: `[result r_x, lines 1–5000 of 5000]\n${longLog(5000)}` }];
    for (const name of ["mcp__loupe__read_result", "mcp__loupe__search_result"]) {
      const run = await runHook(basePayload(name, { result_id: "r_x", start_line: 1 }, blocks), env);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "", name);
    }
  });

  it("keeps MCP content blocks as blocks and also sets updatedMCPToolOutput", async () => {
    const blocks = [{ type: "text", text: longLog(5000) }];
    const run = await runHook(basePayload("mcp__logs__tail", { service: "api" }, blocks), env);
    assert.equal(run.code, 0, run.stderr);
    const output = (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput;
    const updated = output.updatedToolOutput as { type: string; text: string }[];
    assert.equal(updated.length, 1);
    assert.equal(updated[0]?.type, "text");
    assert.match(updated[0]?.text ?? "", /\[loupe/);
    assert.deepEqual(output.updatedMCPToolOutput, updated);
  });

  it("passes the model Codex names in its payload, so the view fills that model's exact budget (no unknown-tokenizer margin)", async () => {
    const payload = basePayload("shell", { command: ["bash", "-lc", "make"] }, longLog(5000));
    const unnamed = await runHook(payload, { ...env, LOUPE_SOURCE: "codex" });
    const named = await runHook({ ...payload, model: "gpt-5.5" }, { ...env, LOUPE_SOURCE: "codex" });
    const viewOf = (run: { stdout: string }) => (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput.updatedToolOutput as string;
    const [without, withModel] = [tokens.count(viewOf(unnamed)), tokens.count(viewOf(named))];
    assert.ok(without <= 1600 && withModel > 1700 && withModel <= 2000, `views of ${String(without)} and ${String(withModel)} tokens`);
  });

  it("accepts a Codex-style string tool_response and answers with a string", async () => {
    const run = await runHook(basePayload("shell", { command: ["bash", "-lc", "make"] }, longLog(5000)), { ...env, LOUPE_SOURCE: "codex" });
    assert.equal(run.code, 0, run.stderr);
    const updated = (JSON.parse(run.stdout) as HookOutput).hookSpecificOutput.updatedToolOutput;
    assert.equal(typeof updated, "string");
    assert.match(updated as string, /\[loupe/);
  });
});
