import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Turn, TurnPart, TurnToolCall, TurnToolResult } from "../turn.js";
import { renderOpenAIChatMessages } from "./render-openai-chat-messages.js";

function turn(seq: number, role: Turn["role"], rest: Partial<Omit<Turn, "seq" | "role">> = {}): Turn {
  return { seq, role, parts: [], toolCalls: [], toolResults: [], tokenCount: 0, ...rest };
}
const textPart = (text: string): TurnPart => ({ type: "text", text });
const call = (toolUseId: string, argsJson = '{"command":"make"}'): TurnToolCall => ({ toolUseId, name: "shell", argsJson });
const result = (toolUseId: string, text: string, rest: Partial<TurnToolResult> = {}): TurnToolResult => ({
  toolUseId,
  toolName: "shell",
  parts: [textPart(text)],
  isError: false,
  ...rest,
});

describe("renderOpenAIChatMessages()", () => {
  it("renders the Chat Completions shape with the system prompt first", () => {
    const messages = renderOpenAIChatMessages(
      [
        turn(1, "user", { parts: [textPart("fix it")] }),
        turn(2, "assistant", { toolCalls: [call("c1"), call("c2", "")] }),
        turn(3, "user", { parts: [textPart("next")], toolResults: [result("c1", "ok"), result("c2", "boom", { isError: true, exitCode: 1 })] }),
        turn(4, "assistant", { parts: [textPart("done")] }),
      ],
      "you are an agent",
    );
    assert.deepEqual(messages, [
      { role: "system", content: "you are an agent" },
      { role: "user", content: "fix it" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "shell", arguments: '{"command":"make"}' } },
          { id: "c2", type: "function", function: { name: "shell", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
      { role: "tool", tool_call_id: "c2", content: "[error exit 1]\nboom" },
      { role: "user", content: "next" },
      { role: "assistant", content: "done" },
    ]);
  });

  it("omits the system message when the prompt is empty and sends images as data urls", () => {
    const messages = renderOpenAIChatMessages([turn(1, "user", { parts: [textPart("look"), { type: "media", mimeType: "image/png", data: "AAAA" }] })], "");
    assert.deepEqual(messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
    ]);
  });

  it("turns orphan results into user text and unanswered calls into assistant text", () => {
    const messages = renderOpenAIChatMessages(
      [
        turn(4, "user", { toolResults: [result("c0", "from before")] }),
        turn(5, "assistant", { parts: [textPart("trying")], toolCalls: [call("c1")] }),
        turn(6, "user", { parts: [textPart("wait")] }),
        turn(7, "user", { toolResults: [result("c1", "late")] }),
      ],
      "",
    );
    assert.deepEqual(messages, [
      { role: "user", content: "[tool result c0 from shell]\nfrom before" },
      { role: "assistant", content: 'trying\n[tool call c1 shell]\n{"command":"make"}' },
      { role: "user", content: "wait" },
      { role: "user", content: "[tool result c1 from shell]\nlate" },
    ]);
  });

  it("pairs results spread over consecutive user turns that carry only results", () => {
    const messages = renderOpenAIChatMessages(
      [
        turn(1, "assistant", { toolCalls: [call("c1"), call("c2")] }),
        turn(2, "user", { toolResults: [result("c1", "a")] }),
        turn(3, "user", { toolResults: [result("c2", "b")] }),
      ],
      "",
    );
    assert.deepEqual(
      messages.map((message) => message.role),
      ["assistant", "tool", "tool"],
    );
  });

  it("gives empty turns a placeholder", () => {
    assert.deepEqual(renderOpenAIChatMessages([turn(1, "user"), turn(2, "assistant", { parts: [textPart(" ")] })], ""), [
      { role: "user", content: "(empty)" },
      { role: "assistant", content: "(empty)" },
    ]);
  });
});
