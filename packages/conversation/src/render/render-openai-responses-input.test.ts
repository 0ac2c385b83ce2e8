import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Turn, TurnPart, TurnToolCall, TurnToolResult } from "../turn.js";
import { renderOpenAIResponsesInput } from "./render-openai-responses-input.js";

function turn(seq: number, role: Turn["role"], rest: Partial<Omit<Turn, "seq" | "role">> = {}): Turn {
  return { seq, role, parts: [], toolCalls: [], toolResults: [], tokenCount: 0, ...rest };
}
const textPart = (text: string): TurnPart => ({ type: "text", text });
const call = (toolUseId: string, argsJson = '{"cmd":"make"}'): TurnToolCall => ({ toolUseId, name: "exec_command", argsJson });
const result = (toolUseId: string, text: string, rest: Partial<TurnToolResult> = {}): TurnToolResult => ({
  toolUseId,
  toolName: "exec_command",
  parts: [textPart(text)],
  isError: false,
  ...rest,
});

describe("renderOpenAIResponsesInput()", () => {
  it("renders messages, function calls and their outputs in order", () => {
    const input = renderOpenAIResponsesInput([
      turn(1, "user", { parts: [textPart("fix it")] }),
      turn(2, "assistant", { parts: [textPart("running make")], toolCalls: [call("c1"), call("c2", "")] }),
      turn(3, "user", { toolResults: [result("c1", "ok"), result("c2", "boom", { isError: true, exitCode: 2 })] }),
      turn(4, "assistant", { parts: [textPart("done")] }),
    ]);
    assert.deepEqual(input, [
      { type: "message", role: "user", content: [{ type: "input_text", text: "fix it" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "running make" }] },
      { type: "function_call", call_id: "c1", name: "exec_command", arguments: '{"cmd":"make"}' },
      { type: "function_call", call_id: "c2", name: "exec_command", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "ok" },
      { type: "function_call_output", call_id: "c2", output: "[error exit 2]\nboom" },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] },
    ]);
  });

  it("sends images as input_image data urls, and turns orphans into text so every call has its output", () => {
    const input = renderOpenAIResponsesInput([
      turn(4, "user", { toolResults: [result("c0", "from before")], parts: [{ type: "media", mimeType: "image/png", data: "AAAA" }] }),
      turn(5, "assistant", { toolCalls: [call("c1")] }),
      turn(6, "user", { parts: [textPart("wait")] }),
      turn(7, "user", { toolResults: [result("c1", "late")] }),
    ]);
    assert.deepEqual(input, [
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "[tool result c0 from exec_command]\nfrom before" },
          { type: "input_image", image_url: "data:image/png;base64,AAAA" },
        ],
      },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: '[tool call c1 exec_command]\n{"cmd":"make"}' }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "wait" }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "[tool result c1 from exec_command]\nlate" }] },
    ]);
  });
});
