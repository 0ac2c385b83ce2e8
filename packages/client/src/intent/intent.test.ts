import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { callText, composeIntent, MAX_EARLIER_BYTES, MAX_INTENT_BYTES } from "./compose-intent.js";
import { intentFromAnthropicMessages } from "./intent-from-anthropic-messages.js";
import { intentFromClaudeTranscript, messagesFromClaudeTranscript, modelFromClaudeTranscript } from "./intent-from-claude-transcript.js";

// Lines as Claude Code 2.1.328 writes its transcript (test/runtimes/FINDINGS.md), bookkeeping lines included.
const transcript = [
  { type: "queue-operation", operation: "enqueue", content: "Fix the failing parser test in src/parse.ts" },
  { type: "user", message: { role: "user", content: "Fix the failing parser test in src/parse.ts" } },
  { type: "attachment", attachment: { type: "date", date: "2026-12-01" } },
  { type: "assistant", message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "I will run the parser tests to see which case fails." }] } },
  {
    type: "assistant",
    message: {
      id: "msg_1",
      role: "assistant",
      content: [{ type: "tool_use", id: "toolu_000001", name: "Bash", input: { command: "pytest tests/test_parse.py" } }],
    },
  },
  { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_000001", content: "…" }] } },
  { type: "assistant", message: { id: "msg_2", role: "assistant", content: [{ type: "text", text: "Now read resolve_lookup." }] } },
  {
    type: "assistant",
    message: { id: "msg_2", role: "assistant", content: [{ type: "tool_use", id: "toolu_000002", name: "Read", input: { file_path: "src/parse.ts" } }] },
  },
]
  .map((line) => JSON.stringify(line))
  .join("\n");

describe("intent", () => {
  it("the model of a Claude Code transcript's last assistant message, or none", () => {
    const withModels = [
      JSON.stringify({ type: "assistant", message: { id: "msg_1", role: "assistant", model: "claude-sonnet-4-5", content: [] } }),
      JSON.stringify({ type: "user", message: { role: "user", content: "go on" } }),
      JSON.stringify({ type: "assistant", message: { id: "msg_2", role: "assistant", model: "claude-opus-4-7", content: [] } }),
      '{"type":"assistant","message":{"model":"cut mid-li',
    ].join("\n");
    assert.equal(modelFromClaudeTranscript(withModels), "claude-opus-4-7");
    assert.equal(modelFromClaudeTranscript(transcript), "");
  });

  it("from a Claude Code transcript: the task and the assistant text that asked for this call", () => {
    assert.equal(
      intentFromClaudeTranscript(transcript, transcript, "toolu_000001"),
      "Fix the failing parser test in src/parse.ts\n\nI will run the parser tests to see which case fails.",
    );
    assert.equal(
      intentFromClaudeTranscript(transcript, transcript, "toolu_000002"),
      "I will run the parser tests to see which case fails.\n[Bash] pytest tests/test_parse.py\n\nFix the failing parser test in src/parse.ts\n\nNow read resolve_lookup.",
      "the earlier message and its call come before the task and the asking text; no tool output",
    );
    assert.equal(messagesFromClaudeTranscript(transcript).filter((message) => message.role === "assistant").length, 2, "one message per id");
  });

  it("from a transcript read at both ends, the task from the head and the call's message from the tail", () => {
    const lines = transcript.split("\n");
    assert.equal(
      intentFromClaudeTranscript(lines.slice(0, 2).join("\n"), `{"type":"assist\n${lines.slice(6).join("\n")}`, "toolu_000002"),
      "Fix the failing parser test in src/parse.ts\n\nNow read resolve_lookup.",
    );
  });

  it("from Anthropic messages; the last assistant text when the call is not found", () => {
    const messages = [
      { role: "user" as const, content: [{ type: "text", text: "Upgrade the client" }] },
      {
        role: "assistant" as const,
        content: [
          { type: "text", text: "Listing the dependencies." },
          { type: "tool_use", id: "t1", name: "bash", input: {} },
        ],
      },
    ];
    assert.equal(intentFromAnthropicMessages(messages, "t1"), "Upgrade the client\n\nListing the dependencies.");
    assert.equal(intentFromAnthropicMessages(messages, "missing"), "Upgrade the client\n\nListing the dependencies.");
    assert.equal(intentFromAnthropicMessages([], "t1"), "");
  });

  it("stays within 16 KiB at a code-point boundary, the asking text first", () => {
    const intent = composeIntent("t".repeat(20_000), "é".repeat(20_000));
    assert.ok(new TextEncoder().encode(intent).byteLength <= MAX_INTENT_BYTES);
    assert.ok(intent.startsWith("tttt") && intent.endsWith("é"));
    assert.ok(!intent.includes("\uFFFD"));
    assert.equal(composeIntent("", "  "), "");
  });

  it("earlier messages: their last 4 KiB, whole words, before the task and the asking text", () => {
    const earlier = ["first look at the sources", `${"older_words ".repeat(500)}then sed -n 398,500p django/x.py`];
    const intent = composeIntent("The task", "Now read lookups.", earlier);
    assert.ok(intent.endsWith("\n\nThe task\n\nNow read lookups."));
    assert.ok(intent.includes("then sed -n 398,500p django/x.py"), "the most recent end is kept");
    assert.ok(!intent.includes("first look"), "the oldest text beyond 4 KiB is left out");
    const middle = intent.slice(0, -"\n\nThe task\n\nNow read lookups.".length);
    assert.ok(new TextEncoder().encode(middle).byteLength <= MAX_EARLIER_BYTES);
    assert.ok(middle.startsWith("older_words "), "the cut starts at a whole word");
    assert.equal(composeIntent("", "", ["  ", ""]), "");
    assert.equal(composeIntent("", "asking", ["said before"]), "said before\n\nasking");
  });

  it("stays within 16 KiB with all three parts long, each part present", () => {
    const intent = composeIntent("t".repeat(20_000), "a".repeat(20_000), ["😀 ".repeat(5_000)]);
    assert.ok(new TextEncoder().encode(intent).byteLength <= MAX_INTENT_BYTES);
    assert.ok(intent.startsWith("😀") && intent.includes("\n\ntttt") && intent.endsWith("aaaa"));
    assert.ok(!intent.includes("\uFFFD"));
  });

  it("a call as an earlier message carries it: its name and the text of its arguments", () => {
    assert.equal(callText("Bash", { command: "grep -rn resolve_lookup src", description: "find it" }), "[Bash] grep -rn resolve_lookup src find it");
    assert.equal(callText("read", '{"path":"src/a.ts","offset":10,"nested":{"list":["x",true]}}'), "[read] src/a.ts 10 x");
    assert.equal(callText("patch", "*** Begin Patch"), "[patch] *** Begin Patch");
    assert.equal(callText("write", { content: "x".repeat(5_000) }).length, 2_000);
  });

  it("from Anthropic messages: the assistant's earlier messages and calls, never the tool results", () => {
    const messages = [
      { role: "user" as const, content: "Fix the lookup" },
      {
        role: "assistant" as const,
        content: [
          { type: "text", text: "Searching first." },
          { type: "tool_use", id: "t1", name: "grep", input: { pattern: "resolve_lookup" } },
        ],
      },
      { role: "user" as const, content: [{ type: "tool_result", tool_use_id: "t1", content: "src/a.ts:10: resolve_lookup(x)" }] },
      { role: "assistant" as const, content: [{ type: "tool_use", id: "t2", name: "read", input: { file_path: "src/a.ts" } }] },
    ];
    assert.equal(intentFromAnthropicMessages(messages, "t2"), "Searching first.\n[grep] resolve_lookup\n\nFix the lookup");
    assert.equal(intentFromAnthropicMessages(messages, "t1"), "Fix the lookup\n\nSearching first.");
  });
});
