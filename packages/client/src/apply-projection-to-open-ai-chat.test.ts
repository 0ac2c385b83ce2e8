import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { ProjectResponseSchema } from "@loupe/proto";
import { applyProjectionToOpenAiChat } from "./apply-projection-to-open-ai-chat.js";

const view = create(ProjectResponseSchema, {
  parts: [
    { content: { case: "text", value: "line 1\n[loupe: lines 2-999 omitted]\n" } },
    { content: { case: "media", value: { mimeType: "image/png", data: new Uint8Array([1, 2, 3]), name: "shot.png" } } },
    { content: { case: "json", value: '{"ok":false}' } },
  ],
});

describe("applyProjectionToOpenAiChat()", () => {
  it("keeps tool_call_id and other fields; a string content stays a string joined with newlines", () => {
    const message = { role: "tool" as const, tool_call_id: "call_1", name: "read_file", content: "original" };
    assert.deepEqual(applyProjectionToOpenAiChat(message, view), {
      role: "tool",
      tool_call_id: "call_1",
      name: "read_file",
      content: 'line 1\n[loupe: lines 2-999 omitted]\n\n[loupe: medium not attached: name=shot.png, mime_type=image/png, size_bytes=3]\n{"ok":false}',
    });
    assert.equal(message.content, "original", "the input is unchanged");
  });

  it("writes an array content as text parts in the view's order", () => {
    const projected = applyProjectionToOpenAiChat({ role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "original" }] }, view);
    assert.equal(projected.tool_call_id, "call_1");
    assert.deepEqual(
      projected.content,
      ["line 1\n[loupe: lines 2-999 omitted]\n", "[loupe: medium not attached: name=shot.png, mime_type=image/png, size_bytes=3]", '{"ok":false}'].map(
        (text) => ({ type: "text", text }),
      ),
    );
  });
});
