import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isGeminiChatLine, rowsOfGeminiChat } from "./gemini-chat.js";
import { readCorpus } from "./read-corpus.js";

// Real program output placed in a chat file written the way Gemini CLI writes one: a header line, messages as lines, a
// reply written again once its calls have results, the shell's answer framed ("Output: …", "Exit Code: N").

const listing = spawnSync("ls", ["-la", "/"], { encoding: "utf8" }).stdout;
const failure = spawnSync(process.execPath, ["-e", "function loadConfig() { throw new TypeError('missing database_url'); } loadConfig();"], {
  encoding: "utf8",
}).stderr;

const shellAnswer = (output: string, code: number): string =>
  `<untrusted_context>\nOutput: ${output}${code === 0 ? "" : `\nExit Code: ${String(code)}`}\nProcess Group PGID: 4242\n</untrusted_context>`;
const call = (id: string, name: string, args: Record<string, unknown>, output: string): Record<string, unknown> => ({
  id,
  name,
  args,
  result: [{ functionResponse: { id, name, response: { output } } }],
  status: "success",
});
const reply = (id: string, content: string, toolCalls?: unknown[]): Record<string, unknown> => ({
  id,
  type: "gemini",
  content,
  thoughts: [{ subject: "Planning", description: `Before: ${content}` }],
  model: "gemini-2.5-pro",
  ...(toolCalls === undefined ? {} : { toolCalls }),
});
const calls = [
  call("c1", "run_shell_command", { command: "ls -la /" }, shellAnswer(listing, 0)),
  call("c2", "run_shell_command", { command: "node app.js" }, shellAnswer(failure, 1)),
];

const chat = [
  { sessionId: "s-1", projectHash: "76e2", startTime: "2026-12-07T10:00:00Z", kind: "main" },
  { $set: { messages: [{ id: "u0", type: "user", content: [{ text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" }] }] } },
  { id: "u1", type: "user", content: [{ text: "loadConfig fails without DATABASE_URL; fix it" }] },
  reply("g1", "The root, then the app."),
  { $set: { lastUpdated: "2026-12-07T10:00:01Z" } },
  reply("g1", "The root, then the app.", calls),
  { id: "u2", type: "user", content: calls.map((entry) => (entry["result"] as unknown[])[0]) },
  reply("g2", "The TypeError comes from loadConfig.", [call("c3", "read_file", { absolute_path: "/srv/app/config.js" }, "export function loadConfig() {}")]),
  reply("g3", "Fixed."),
];

describe("rowsOfGeminiChat()", () => {
  it("makes a row of each answered call followed by a reply, the shell's framing taken off and its exit code read", () => {
    const rows = rowsOfGeminiChat(chat.map((line) => JSON.stringify(line)).join("\n"), "gemini-cli:s-1");
    assert.deepEqual(
      rows.map((row) => [row.step, row.tool, row.args, row.exitCode]),
      [
        [1, "run_shell_command", { command: "ls -la /" }, 0],
        [2, "run_shell_command", { command: "node app.js" }, 1],
        [3, "read_file", { absolute_path: "/srv/app/config.js" }, undefined],
      ],
      "a reply written again counts once, with its calls",
    );
    const [first, second, third] = rows;
    assert.equal(first?.agentSystem, "gemini-cli (gemini-2.5-pro)");
    assert.equal(first?.model, "gemini-2.5-pro");
    assert.equal(first?.task, "loadConfig fails without DATABASE_URL; fix it", "Gemini CLI's own context is not the task");
    assert.equal(first?.output, listing);
    assert.equal(second?.output, failure);
    assert.equal(third?.output, "export function loadConfig() {}");
    assert.equal(
      first?.nextAction,
      "Planning\nBefore: The TypeError comes from loadConfig.\nThe TypeError comes from loadConfig.\n[read_file] /srv/app/config.js",
    );
    assert.equal(second?.nextAction, first?.nextAction, "calls of one reply share the reply after them");
    assert.equal(
      second?.previousAction,
      "Planning\nBefore: The root, then the app.\nThe root, then the app.\n[run_shell_command] ls -la /\n[run_shell_command] node app.js",
    );
    assert.deepEqual(third?.earlierActions, [second?.previousAction]);
  });

  it("tells a chat file's first line from others'", () => {
    assert.equal(isGeminiChatLine(chat[0]), true);
    assert.equal(isGeminiChatLine({ sessionId: "s", type: "user", message: {} }), false);
  });
});

describe("readCorpus() with a Gemini CLI chat", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-gemini-"));
    await writeFile(join(dir, "session-2026-12-07T10-00-s1.jsonl"), chat.map((line) => JSON.stringify(line)).join("\n") + "\n");
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("reads a .jsonl whose first line is a chat's header as that chat, named by the file", async () => {
    const corpus = await readCorpus([join(dir, "session-2026-12-07T10-00-s1.jsonl")]);
    assert.deepEqual(
      corpus.trajectories.map((trajectory) => [trajectory.agentSystem, trajectory.id, trajectory.rows.length]),
      [["gemini-cli (gemini-2.5-pro)", "gemini-cli:session-2026-12-07T10-00-s1", 3]],
    );
  });
});
