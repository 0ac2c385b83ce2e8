import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Turn, TurnPart, TurnToolCall, TurnToolResult } from "../turn.js";
import { renderAnthropicMessages } from "./render-anthropic-messages.js";

function turn(seq: number, role: Turn["role"], rest: Partial<Omit<Turn, "seq" | "role">> = {}): Turn {
  return { seq, role, parts: [], toolCalls: [], toolResults: [], tokenCount: 0, ...rest };
}
const textPart = (text: string): TurnPart => ({ type: "text", text });
const call = (toolUseId: string, name = "Bash", argsJson = '{"command":"make"}'): TurnToolCall => ({ toolUseId, name, argsJson });
const result = (toolUseId: string, text: string, rest: Partial<TurnToolResult> = {}): TurnToolResult => ({
  toolUseId,
  toolName: "Bash",
  parts: [textPart(text)],
  isError: false,
  ...rest,
});

describe("renderAnthropicMessages()", () => {
  it("renders calls and results in the Messages API shape", () => {
    const messages = renderAnthropicMessages([
      turn(1, "user", { parts: [textPart("fix the build"), { type: "json", json: '{"a":1}' }] }),
      turn(2, "assistant", { parts: [textPart("running make")], toolCalls: [call("t1")] }),
      turn(3, "user", { parts: [textPart("and?")], toolResults: [result("t1", "error: x", { isError: true, exitCode: 2 })] }),
    ]);
    assert.deepEqual(messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "fix the build" },
          { type: "text", text: '{"a":1}' },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "running make" },
          { type: "tool_use", id: "t1", name: "Bash", input: { command: "make" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "error: x" }], is_error: true },
          { type: "text", text: "and?" },
        ],
      },
    ]);
  });

  it("renders base64 images as image blocks and other media as a text line", () => {
    const [message] = renderAnthropicMessages([
      turn(1, "user", {
        parts: [
          { type: "media", mimeType: "image/png", data: "iVBOR" },
          { type: "media", mimeType: "application/pdf", uri: "s3://b/report.pdf" },
          { type: "media", mimeType: "image/png", name: "shot.png" },
        ],
      }),
    ]);
    assert.deepEqual(message?.content, [
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
      { type: "text", text: "[media application/pdf s3://b/report.pdf]" },
      { type: "text", text: "[media image/png shot.png]" },
    ]);
  });

  it("turns a result whose call is not in the message right before it into text", () => {
    const messages = renderAnthropicMessages([
      turn(7, "user", { toolResults: [result("t0", "output", { toolName: "Read" })] }),
      turn(8, "assistant", { toolCalls: [call("t1")] }),
      turn(9, "user", { toolResults: [result("t1", "ok")] }),
      turn(10, "assistant", { parts: [textPart("done")] }),
      turn(11, "user", { toolResults: [result("t1", "late")] }),
    ]);
    assert.deepEqual(messages[0]?.content, [{ type: "text", text: "[tool result t0 from Read]\noutput" }]);
    assert.equal(messages[2]?.content[0]?.type, "tool_result");
    assert.deepEqual(messages[4]?.content, [{ type: "text", text: "[tool result t1 from Bash]\nlate" }]);
  });

  it("turns a call nothing answers right after it into text", () => {
    const messages = renderAnthropicMessages([
      turn(1, "user", { parts: [textPart("go")] }),
      turn(2, "assistant", { toolCalls: [call("t1"), call("t2", "Read", "")] }),
      turn(3, "user", { toolResults: [result("t1", "ok")] }),
      turn(4, "assistant", { toolCalls: [call("t3")] }),
    ]);
    assert.deepEqual(messages[1]?.content, [
      { type: "text", text: "[tool call t2 Read]" },
      { type: "tool_use", id: "t1", name: "Bash", input: { command: "make" } },
    ]);
    assert.deepEqual(messages[3]?.content, [{ type: "text", text: '[tool call t3 Bash]\n{"command":"make"}' }]);
  });

  it("merges consecutive turns of one role, tool results first", () => {
    const messages = renderAnthropicMessages([
      turn(1, "user", { parts: [textPart("a")] }),
      turn(2, "assistant", { toolCalls: [call("t1"), call("t2")] }),
      turn(3, "user", { parts: [textPart("b")], toolResults: [result("t1", "one")] }),
      turn(4, "user", { toolResults: [result("t2", "two")] }),
      turn(5, "user", { parts: [textPart("c")] }),
    ]);
    assert.equal(messages.length, 3);
    assert.deepEqual(
      messages[2]?.content.map((block) => (block.type === "tool_result" ? block.tool_use_id : block.type === "text" ? block.text : block.type)),
      ["t1", "t2", "b", "c"],
    );
  });

  it("starts with a user message and never sends empty content", () => {
    const messages = renderAnthropicMessages([
      turn(5, "assistant", { parts: [textPart("  ")] }),
      turn(6, "user", { toolResults: [{ toolUseId: "x", toolName: "Bash", parts: [], isError: false }] }),
      turn(7, "assistant", { toolCalls: [call("t1", "Bash", "not json")] }),
      turn(8, "user", { toolResults: [{ toolUseId: "t1", toolName: "Bash", parts: [textPart("")], isError: false }] }),
    ]);
    assert.deepEqual(messages[0], { role: "user", content: [{ type: "text", text: "[history starts mid-session]" }] });
    assert.deepEqual(messages[1], { role: "assistant", content: [{ type: "text", text: "(empty)" }] });
    assert.deepEqual(messages[2]?.content, [{ type: "text", text: "[tool result x from Bash]\n(no output)" }]);
    assert.deepEqual(messages[3]?.content, [{ type: "tool_use", id: "t1", name: "Bash", input: {} }]);
    assert.deepEqual(messages[4]?.content, [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "(no output)" }] }]);
  });

  it("renders a repeated tool_use id as text (the vendor wants unique ids)", () => {
    const messages = renderAnthropicMessages([
      turn(1, "assistant", { toolCalls: [call("t1")] }),
      turn(2, "user", { toolResults: [result("t1", "a")] }),
      turn(3, "assistant", { toolCalls: [call("t1")] }),
      turn(4, "user", { toolResults: [result("t1", "b")] }),
    ]);
    assert.equal(messages[3]?.content[0]?.type, "text");
    assert.equal(messages[4]?.content[0]?.type, "text");
  });
});
