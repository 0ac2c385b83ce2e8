import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { ToolResultSchema } from "@loupe/proto";
import type { OpenAiToolCall } from "./open-ai-types.js";
import { toolResultFromOpenAi } from "./tool-result-from-open-ai.js";

const toolCall: OpenAiToolCall = { id: "call_abc", type: "function", function: { name: "read_file", arguments: '{"path":"src/a.ts"}' } };

describe("toolResultFromOpenAi()", () => {
  it("keeps the tool_call_id, name and arguments string as they are", () => {
    const message = create(ToolResultSchema, toolResultFromOpenAi(toolCall, { role: "tool", tool_call_id: "call_abc", content: "line 1\nline 2\n" }));
    assert.equal(message.toolUseId, "call_abc");
    assert.equal(message.toolName, "read_file");
    assert.equal(message.argsJson, '{"path":"src/a.ts"}');
    assert.deepEqual(
      message.parts.map((part) => part.content.value),
      ["line 1\nline 2\n"],
    );
    assert.equal(message.isError, false);
  });

  it("turns text parts into text parts, in order, and takes is_error from the options", () => {
    const toolMessage = {
      role: "tool" as const,
      tool_call_id: "call_abc",
      content: [
        { type: "text" as const, text: "a" },
        { type: "text" as const, text: "b" },
      ],
    };
    const message = create(ToolResultSchema, toolResultFromOpenAi(toolCall, toolMessage, { isError: true }));
    assert.deepEqual(
      message.parts.map((part) => part.content.value),
      ["a", "b"],
    );
    assert.equal(message.isError, true);
  });

  it("refuses a message that answers another call", () => {
    assert.throws(() => toolResultFromOpenAi(toolCall, { role: "tool", tool_call_id: "call_other", content: "x" }), { code: "invalid_argument" });
  });
});
