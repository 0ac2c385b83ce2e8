import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { intentFromGeminiChat, modelFromGeminiChat } from "./intent-from-gemini-chat.js";

// Lines in the shape Gemini CLI 0.61 writes its chat file (`transcript_path`), trimmed to the fields read.
const line = (value: Record<string, unknown>): string => JSON.stringify(value);
const CHAT = [
  line({ sessionId: "s1", projectHash: "p", startTime: "2026-12-04T20:11:27.253Z", kind: "main" }),
  line({ $set: { messages: [{ id: "m0", type: "user", content: [{ text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" }] }] } }),
  line({ id: "m0", type: "user", content: [{ text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" }] }),
  line({ id: "m1", type: "user", content: [{ text: "Fix the crash in resolve_lookup_table" }] }),
  line({ id: "g1", type: "gemini", content: "Let me read lookup.py.", thoughts: [], model: "gemini-2.5-pro" }),
  line({
    id: "g1",
    type: "gemini",
    content: "Let me read lookup.py.",
    thoughts: [],
    model: "gemini-2.5-pro",
    toolCalls: [{ id: "t1", name: "read_file", args: { file_path: "lookup.py" } }],
  }),
  line({ id: "m2", type: "user", content: [{ functionResponse: { id: "t1", name: "run_shell_command", response: { output: "…" } } }] }),
  line({ $set: { lastUpdated: "2026-12-04T20:11:27.979Z" } }),
  line({
    id: "g2",
    type: "gemini",
    content: [{ text: "Now its test." }],
    thoughts: [{ subject: "Narrowing down", description: "zebra_quota fails" }],
    model: "gemini-2.5-flash",
  }),
].join("\n");

// A tool call as Gemini CLI 0.61 records it in a reply's `toolCalls` (its result included), trimmed.
const toolCall = (id: string, name: string, args: Record<string, unknown>, output: string): Record<string, unknown> => ({
  id,
  name,
  args,
  result: [{ functionResponse: { id, name, response: { output } } }],
  status: "success",
  displayName: "Shell",
});

describe("intentFromGeminiChat()", () => {
  it("is the earlier replies with their calls, the task (not Gemini CLI's own context), and what the model thought and said in its last reply", () => {
    assert.equal(
      intentFromGeminiChat(CHAT, CHAT),
      "Let me read lookup.py.\n[read_file] lookup.py\n\nFix the crash in resolve_lookup_table\n\nNarrowing down\nzebra_quota fails\nNow its test.",
    );
    const upToFirstCall = CHAT.split("\n").slice(0, 6).join("\n");
    assert.equal(intentFromGeminiChat(upToFirstCall, upToFirstCall), "Fix the crash in resolve_lookup_table\n\nLet me read lookup.py.");
    assert.equal(modelFromGeminiChat(CHAT), "gemini-2.5-flash");
  });

  it("carries the earlier replies' thoughts, text and tool calls with their arguments, oldest first, never a call's result", () => {
    const chat = [
      line({ id: "m1", type: "user", content: [{ text: "Fix the crash in resolve_lookup_table" }] }),
      line({
        id: "g1",
        type: "gemini",
        content: "Let me read the lookup.",
        thoughts: [{ subject: "Locating", description: "it is in django/x.py" }],
        toolCalls: [toolCall("t1", "run_shell_command", { command: "sed -n 398,500p django/x.py", description: "read" }, "398 def lookup(): SECRET-OUTPUT")],
      }),
      line({
        id: "g2",
        type: "gemini",
        content: "",
        toolCalls: [toolCall("t2", "read_file", { file_path: "django/y.py", start_line: 10, end_line: 40 }, "SECRET-FILE")],
      }),
      line({ id: "m2", type: "user", content: "and the docs" }),
      line({ id: "g3", type: "gemini", content: [{ text: "Now the docs." }], toolCalls: [{ id: "t3", name: "grep_search", args: { pattern: "zebra" } }] }),
    ].join("\n");
    const intent = intentFromGeminiChat(chat, chat);
    assert.equal(
      intent,
      [
        "Locating\nit is in django/x.py\nLet me read the lookup.\n[run_shell_command] sed -n 398,500p django/x.py read",
        "[read_file] django/y.py 10 40",
        "Fix the crash in resolve_lookup_table",
        "Now the docs.",
      ].join("\n\n"),
    );
    assert.ok(intent.endsWith("\n\nNow the docs."));
    assert.ok(!intent.includes("SECRET"), "a call's result is not the model's words");
    assert.ok(!intent.includes("and the docs") && !intent.includes("zebra"), "nor a later user message, nor the asking reply's own calls");
    // A reply written again after later messages (its calls' results synced) keeps its place.
    const rewritten = `${chat}\n${chat.split("\n")[1] ?? ""}`;
    assert.equal(intentFromGeminiChat(rewritten, rewritten), intent);
  });

  it('reads the task from the head and the replies from the tail; nothing gives ""', () => {
    const lines = CHAT.split("\n");
    assert.equal(intentFromGeminiChat(lines.slice(0, 4).join("\n"), `tail cut"}\n${lines.slice(4).join("\n")}`), intentFromGeminiChat(CHAT, CHAT));
    assert.equal(
      intentFromGeminiChat(lines.slice(0, 4).join("\n"), `tail cut"}\n${lines.slice(6).join("\n")}`),
      "Fix the crash in resolve_lookup_table\n\nNarrowing down\nzebra_quota fails\nNow its test.",
    );
    assert.equal(intentFromGeminiChat("", ""), "");
    assert.equal(modelFromGeminiChat("{}"), "");
  });
});
