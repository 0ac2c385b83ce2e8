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
  line({ id: "g1", type: "gemini", content: "Let me read lookup.py.", thoughts: [], model: "gemini-2.5-pro", toolCalls: [{ id: "t1" }] }),
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

describe("intentFromGeminiChat()", () => {
  it("is the task (not Gemini CLI's own context) and what the model thought and said in its last reply", () => {
    assert.equal(intentFromGeminiChat(CHAT, CHAT), "Fix the crash in resolve_lookup_table\n\nNarrowing down\nzebra_quota fails\nNow its test.");
    const upToFirstCall = CHAT.split("\n").slice(0, 6).join("\n");
    assert.equal(intentFromGeminiChat(upToFirstCall, upToFirstCall), "Fix the crash in resolve_lookup_table\n\nLet me read lookup.py.");
    assert.equal(modelFromGeminiChat(CHAT), "gemini-2.5-flash");
  });

  it('reads the task from the head and the reply from the tail; nothing gives ""', () => {
    const lines = CHAT.split("\n");
    assert.equal(intentFromGeminiChat(lines.slice(0, 4).join("\n"), `tail cut"}\n${lines.slice(6).join("\n")}`), intentFromGeminiChat(CHAT, CHAT));
    assert.equal(intentFromGeminiChat("", ""), "");
    assert.equal(modelFromGeminiChat("{}"), "");
  });
});
