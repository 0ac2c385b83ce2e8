import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { ToolResultSchema } from "@loupe/proto";
import type { AnthropicToolResultBlock, AnthropicToolUseBlock } from "@loupe/conversation";
import { toolResultFromAnthropic } from "./tool-result-from-anthropic.js";

const toolUse: AnthropicToolUseBlock = { type: "tool_use", id: "toolu_01", name: "Bash", input: { command: "npm test" } };
const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString("base64");

describe("toolResultFromAnthropic()", () => {
  it("keeps tool_use_id, tool name, input as args_json and is_error from a string content", () => {
    const init = toolResultFromAnthropic(toolUse, { type: "tool_result", tool_use_id: "toolu_01", content: "FAIL src/a.test.ts", is_error: true });
    const message = create(ToolResultSchema, init);
    assert.equal(message.toolUseId, "toolu_01");
    assert.equal(message.toolName, "Bash");
    assert.deepEqual(JSON.parse(message.argsJson), { command: "npm test" });
    assert.equal(message.isError, true);
    assert.deepEqual(
      message.parts.map((part) => part.content.value),
      ["FAIL src/a.test.ts"],
    );
  });

  it("turns text blocks into text parts and images into media, in order", () => {
    const block: AnthropicToolResultBlock = {
      type: "tool_result",
      tool_use_id: "toolu_01",
      content: [
        { type: "text", text: "first" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
        { type: "text", text: "second" },
        { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
      ],
    };
    const message = create(ToolResultSchema, toolResultFromAnthropic(toolUse, block));
    assert.deepEqual(
      message.parts.map((part) => part.content.case),
      ["text", "media", "text", "media"],
    );
    const image = message.parts[1]?.content;
    assert.ok(image?.case === "media");
    assert.equal(image.value.mimeType, "image/png");
    assert.equal(Buffer.from(image.value.data).toString("base64"), PNG_BASE64);
    const url = message.parts[3]?.content;
    assert.ok(url?.case === "media");
    assert.equal(url.value.uri, "https://example.com/a.png");
    assert.equal(message.isError, false, "absent is_error means false");
  });

  it("gives no parts for an absent content", () => {
    assert.deepEqual(toolResultFromAnthropic(toolUse, { type: "tool_result", tool_use_id: "toolu_01" }).parts, []);
  });

  it("refuses a tool_result that answers another tool_use", () => {
    assert.throws(() => toolResultFromAnthropic(toolUse, { type: "tool_result", tool_use_id: "toolu_02", content: "x" }), { code: "invalid_argument" });
  });

  it("refuses a block type it could not give back", () => {
    const block: AnthropicToolResultBlock = { type: "tool_result", tool_use_id: "toolu_01", content: [{ type: "document", source: {} }] };
    assert.throws(() => toolResultFromAnthropic(toolUse, block), {
      code: "invalid_argument",
      message: "unsupported tool_result content block [type=document]",
    });
  });
});
