import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Turn } from "@loupe/conversation";
import { validateAnthropicRequest } from "@loupe/testing";
import { anthropicNoteRequest } from "./anthropic-note-request.js";
import { recordOf, sessionTurns, updateInput } from "./testing/session-turns.js";

const cacheMarks = (request: ReturnType<typeof anthropicNoteRequest>): string[] =>
  request.messages.flatMap((message, index) =>
    message.content.flatMap((block, position) => (block.cache_control === undefined ? [] : [`${String(index)}.${String(position)}`])),
  );

describe("anthropicNoteRequest()", () => {
  it("forks the session: system with a breakpoint, tools as sent, turns, then the instruction in the last user message", () => {
    const turns = sessionTurns(9);
    const request = anthropicNoteRequest(updateInput(turns, 6, 9, recordOf("# Note v1\nobjective: fix the build", 5, 1, "anthropic")), "claude-x", 2048);
    assert.equal(validateAnthropicRequest(request), undefined);
    assert.deepEqual(request.system, [{ type: "text", text: "You are a careful coding agent.", cache_control: { type: "ephemeral" } }]);
    assert.deepEqual(
      request.tools?.map((tool) => tool.name),
      ["Bash", "Read"],
    );
    assert.equal(request.max_tokens, 2048);
    assert.equal(request.messages.length, 9, "turn 9 is a user turn: the instruction joins it");
    const last = request.messages.at(-1)!;
    assert.equal(last.content[0]?.type, "tool_result", "the last user message keeps its own blocks first");
    const instruction = last.content.at(-1);
    assert.ok(instruction?.type === "text");
    assert.match(instruction.text, /ONLY the turns after turn:5 \(turn:6 to turn:9\)/);
    assert.match(instruction.text, /<previous_note>\n# Note v1\nobjective: fix the build\n<\/previous_note>/);
    assert.match(instruction.text, /under 800 tokens/);
    assert.match(instruction.text, /^turn:8 assistant: Step 4: running the tests\. \/ → Bash/m);
    assert.deepEqual(cacheMarks(request), ["4.0", "8.0"], "breakpoints after the last covered turn (5) and the last turn (9), not on the instruction");
  });

  it("adds a user message for the instruction when the last turn is the assistant's, and says none yet for a first note", () => {
    const request = anthropicNoteRequest(updateInput(sessionTurns(4), 1, 4, undefined), "claude-x", 100);
    assert.equal(validateAnthropicRequest(request), undefined);
    const last = request.messages.at(-1)!;
    assert.equal(last.role, "user");
    assert.equal(last.content.length, 1);
    assert.match(last.content[0]?.type === "text" ? last.content[0].text : "", /the turns so far \(turn:1 to turn:4\)[\s\S]*Previous note: none yet$/);
    assert.ok(JSON.stringify(request.messages[3]).includes("[tool call toolu_4 Bash]"), "the call turn 4 made has no result yet: it is text");
  });

  it("keeps the request valid when history starts mid-exchange or turns of one role follow each other", () => {
    const turns = sessionTurns(12).filter((turn) => turn.seq >= 3);
    const extra: Turn = { seq: 13, role: "user", parts: [{ type: "text", text: "also check the linter" }], toolCalls: [], toolResults: [], tokenCount: 5 };
    for (const [from, to] of [
      [3, 8],
      [9, 13],
      [4, 4],
    ] as const) {
      const request = anthropicNoteRequest(updateInput([...turns, extra], from, to, undefined), "claude-x", 100);
      assert.equal(validateAnthropicRequest(request), undefined, `turns ${String(from)}…${String(to)}`);
    }
  });

  it("leaves tools out when none were sent or they are not Anthropic tools, and turns tool blocks into text then", () => {
    for (const toolsJson of ["", "not json", JSON.stringify([{ type: "function", function: { name: "f" } }])]) {
      const request = anthropicNoteRequest(updateInput(sessionTurns(6), 1, 6, undefined, toolsJson), "claude-x", 100);
      assert.equal(request.tools, undefined);
      assert.equal(validateAnthropicRequest(request), undefined);
      const types = request.messages.flatMap((message) => message.content.map((block) => block.type));
      assert.ok(!types.includes("tool_use") && !types.includes("tool_result"));
    }
  });

  it("is deterministic: the covered prefix of the next update is byte-identical up to the old breakpoint", () => {
    const turns = sessionTurns(16);
    const first = anthropicNoteRequest(updateInput(turns, 1, 9, undefined), "claude-x", 100);
    const second = anthropicNoteRequest(updateInput(turns, 10, 16, recordOf("v1", 9, 1, "anthropic")), "claude-x", 100);
    const strip = (value: unknown): string => JSON.stringify(value, (key, item: unknown) => (key === "cache_control" ? undefined : item));
    assert.equal(strip(second.messages.slice(0, 8)), strip(first.messages.slice(0, 8)));
    assert.deepEqual(anthropicNoteRequest(updateInput(turns, 1, 9, undefined), "claude-x", 100), first);
  });
});
