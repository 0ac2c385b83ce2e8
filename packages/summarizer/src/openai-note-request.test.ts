import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateChatRequest } from "@loupe/testing";
import { openAINoteRequest } from "./openai-note-request.js";
import { ANTHROPIC_TOOLS_JSON, OPENAI_TOOLS_JSON, recordOf, sessionTurns, updateInput } from "./testing/session-turns.js";

describe("openAINoteRequest()", () => {
  it("forks the session: system message, turns, tools as given, then the instruction as the last user message", () => {
    const turns = sessionTurns(9);
    const request = openAINoteRequest(updateInput(turns, 6, 9, recordOf("# Note v1", 5, 1, "openai"), OPENAI_TOOLS_JSON), "gpt-x", 1500);
    assert.equal(validateChatRequest(request), undefined);
    assert.deepEqual(request.messages[0], { role: "system", content: "You are a careful coding agent." });
    assert.deepEqual(request.tools, JSON.parse(OPENAI_TOOLS_JSON));
    assert.equal(request.max_completion_tokens, 1500);
    const last = request.messages.at(-1);
    assert.equal(last?.role, "user");
    assert.match(typeof last?.content === "string" ? last.content : "", /ONLY the turns after turn:5 \(turn:6 to turn:9\)[\s\S]*# Note v1/);
    assert.deepEqual(
      request.messages.slice(1, 4).map((message) => message.role),
      ["user", "assistant", "tool"],
    );
  });

  it("omits tools that are not in the Chat Completions shape and stays valid for histories that start mid-exchange", () => {
    const turns = sessionTurns(12).filter((turn) => turn.seq >= 3);
    for (const toolsJson of ["", ANTHROPIC_TOOLS_JSON, "{"]) {
      const request = openAINoteRequest(updateInput(turns, 3, 12, undefined, toolsJson), "gpt-x", 100);
      assert.equal(request.tools, undefined);
      assert.equal(validateChatRequest(request), undefined);
    }
    const pending = openAINoteRequest(updateInput(sessionTurns(6), 1, 6, undefined, OPENAI_TOOLS_JSON), "gpt-x", 100);
    assert.equal(validateChatRequest(pending), undefined, "the call of turn 6 has no result yet");
  });
});
