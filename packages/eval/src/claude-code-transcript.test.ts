import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isClaudeTranscriptLine, rowsOfClaudeCodeTranscript } from "./claude-code-transcript.js";
import { intentOf } from "./intent-of.js";
import { readCorpus } from "./read-corpus.js";

// Real program output placed in a transcript written the way Claude Code writes one: one line per assistant
// block (blocks of one reply share `message.id`), tool results in user lines, two calls side by side in one reply.

const listing = spawnSync("ls", ["-la", "/"], { encoding: "utf8" }).stdout;
const failure = spawnSync(process.execPath, ["-e", "function loadConfig() { throw new TypeError('missing database_url'); } loadConfig();"], {
  encoding: "utf8",
}).stderr;

const line = (type: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ type, sessionId: "s-1", isSidechain: false, message, ...extra });
const user = (content: unknown, extra: Record<string, unknown> = {}): string => line("user", { role: "user", content }, extra);
const said = (id: string, block: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  line("assistant", { id, role: "assistant", model: "claude-opus-4-5", content: [block] }, extra);
const result = (id: string, content: unknown, isError = false): string => user([{ type: "tool_result", tool_use_id: id, content, is_error: isError }]);

const transcript = [
  JSON.stringify({ type: "queue-operation", operation: "enqueue", sessionId: "s-1" }),
  user("<session-start-hook>context the runtime adds</session-start-hook>"),
  user("loadConfig fails without DATABASE_URL; fix it"),
  said("m1", { type: "text", text: "First the root and the failure." }),
  said("m1", { type: "tool_use", id: "t1", name: "Bash", input: { command: "ls -la /", description: "List the root" } }),
  said("m1", { type: "tool_use", id: "t2", name: "Bash", input: { command: "node app.js" } }),
  result("t1", listing),
  // Written again with a reminder appended, as Claude Code does: the first is the tool's.
  result("t1", `${listing}\n\n<system-reminder>\nThe date changed.\n</system-reminder>`),
  result("t2", [{ type: "text", text: `Exit code 1\n${failure}\n\n<system-reminder>\nThe date changed.\n</system-reminder>` }], true),
  said("sub", { type: "tool_use", id: "t9", name: "Grep", input: { pattern: "x" } }, { isSidechain: true }),
  user([{ type: "tool_result", tool_use_id: "t9", content: "from a subagent" }], { isSidechain: true }),
  said("m2", { type: "text", text: "The TypeError comes from loadConfig." }),
  said("m2", { type: "tool_use", id: "t3", name: "Read", input: { file_path: "/srv/app/config.js" } }),
  result("t3", "1\texport function loadConfig() {}\n\n<system-reminder>\nmalware check\n</system-reminder>"),
].join("\n");

describe("rowsOfClaudeCodeTranscript()", () => {
  it("makes a row of each call answered and followed by a reply, with the reply as its next action", () => {
    const rows = rowsOfClaudeCodeTranscript(transcript, "claude-code:s-1");
    assert.ok(rows);
    assert.deepEqual(
      rows.map((row) => [row.step, row.tool, row.args, row.isError, row.exitCode]),
      [
        [1, "Bash", { command: "ls -la /", description: "List the root" }, false, 0],
        [2, "Bash", { command: "node app.js" }, true, 1],
      ],
      "the last call has no reply after it, and the subagent's call is not the session's",
    );
    const [first, second] = rows;
    assert.equal(first?.agentSystem, "claude-code (claude-opus-4-5)");
    assert.equal(first?.model, "claude-opus-4-5");
    assert.equal(first?.task, "loadConfig fails without DATABASE_URL; fix it", "the runtime's own context is not the task");
    assert.equal(first?.output, listing);
    assert.equal(second?.output, failure, "the exit code's line and the reminder Claude Code appended taken off");
    assert.equal(first?.nextAction, "The TypeError comes from loadConfig.\n[Read] /srv/app/config.js");
    assert.equal(second?.nextAction, first?.nextAction, "calls side by side share the reply after them");
  });

  it("records the issuing message on every row, so a call beside another does not get the reply as its intent", () => {
    const rows = rowsOfClaudeCodeTranscript(transcript, "claude-code:s-1") ?? [];
    const issuing = "First the root and the failure.\n[Bash] ls -la /\nList the root\n[Bash] node app.js";
    assert.deepEqual(
      rows.map((row) => row.previousAction),
      [issuing, issuing],
    );
    const trajectory = { agentSystem: "claude-code", id: "claude-code:s-1", rows };
    for (const index of [0, 1]) {
      assert.match(intentOf(trajectory, index), /First the root and the failure/);
      assert.doesNotMatch(intentOf(trajectory, index), /comes from loadConfig/, `call ${index + 1}'s intent holds no part of its answer`);
    }
  });

  it("tells a transcript's lines from a corpus row's, and refuses a text with no message", () => {
    assert.equal(isClaudeTranscriptLine(JSON.parse(transcript.split("\n")[2] ?? "")), true);
    assert.equal(isClaudeTranscriptLine({ agent_system: "x", type: "user", message: {} }), false);
    assert.equal(isClaudeTranscriptLine([]), false);
    assert.equal(rowsOfClaudeCodeTranscript('{"type":"summary","summary":"s"}', "t"), undefined);
  });
});

describe("readCorpus() with a Claude Code transcript", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-claude-"));
    await writeFile(join(dir, "0f3c-session.jsonl"), transcript);
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("reads a .jsonl whose first line is a transcript's as that transcript, named by the file", async () => {
    const corpus = await readCorpus([join(dir, "0f3c-session.jsonl")]);
    assert.deepEqual(
      corpus.trajectories.map((trajectory) => [trajectory.agentSystem, trajectory.id, trajectory.rows.length]),
      [["claude-code (claude-opus-4-5)", "claude-code:0f3c-session", 2]],
    );
    assert.equal(corpus.skipped, 0);
  });
});
