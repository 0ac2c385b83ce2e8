import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { ProjectResponseSchema } from "@loupe/proto";
import type { AnthropicToolResultBlock } from "@loupe/conversation";
import { applyProjectionToAnthropic } from "./apply-projection-to-anthropic.js";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 8, 7]);
const textView = create(ProjectResponseSchema, {
  parts: [{ content: { case: "text", value: "head\n[loupe: 900 lines omitted]\ntail\n" } }, { content: { case: "text", value: "exit 1" } }],
});
const mixedView = create(ProjectResponseSchema, {
  parts: [
    { content: { case: "text", value: "before" } },
    { content: { case: "media", value: { mimeType: "image/png", data: PNG } } },
    { content: { case: "media", value: { uri: "https://example.com/b.png" } } },
    { content: { case: "media", value: { mimeType: "application/pdf", uri: "s3://bucket/a.pdf", name: "a.pdf" } } },
    { content: { case: "text", value: "after" } },
  ],
});

describe("applyProjectionToAnthropic()", () => {
  it("keeps tool_use_id, is_error and other fields, and a string content stays a string", () => {
    const block: AnthropicToolResultBlock = {
      type: "tool_result",
      tool_use_id: "toolu_9",
      content: "x".repeat(10_000),
      is_error: true,
      cache_control: { type: "ephemeral" },
    };
    const projected = applyProjectionToAnthropic(block, textView);
    assert.deepEqual(projected, {
      type: "tool_result",
      tool_use_id: "toolu_9",
      is_error: true,
      cache_control: { type: "ephemeral" },
      content: "head\n[loupe: 900 lines omitted]\ntail\n\nexit 1",
    });
    assert.equal(block.content, "x".repeat(10_000), "the input is unchanged");
  });

  it("does not add is_error when the original had none", () => {
    const projected = applyProjectionToAnthropic({ type: "tool_result", tool_use_id: "toolu_9", content: "long" }, textView);
    assert.equal("is_error" in projected, false);
  });

  it("writes text-block content as text blocks, one per part, in order", () => {
    const projected = applyProjectionToAnthropic(
      { type: "tool_result", tool_use_id: "toolu_9", content: [{ type: "text", text: "long" }], is_error: false },
      textView,
    );
    assert.equal(projected.is_error, false);
    assert.deepEqual(projected.content, [
      { type: "text", text: "head\n[loupe: 900 lines omitted]\ntail\n" },
      { type: "text", text: "exit 1" },
    ]);
  });

  it("keeps images in order (base64 data and urls) and names a medium that cannot be attached", () => {
    const projected = applyProjectionToAnthropic({ type: "tool_result", tool_use_id: "toolu_9", content: "long" }, mixedView);
    assert.deepEqual(projected.content, [
      { type: "text", text: "before" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: Buffer.from(PNG).toString("base64") } },
      { type: "image", source: { type: "url", url: "https://example.com/b.png" } },
      { type: "text", text: "[loupe: medium not attached: name=a.pdf, mime_type=application/pdf, uri=s3://bucket/a.pdf]" },
      { type: "text", text: "after" },
    ]);
  });
});
