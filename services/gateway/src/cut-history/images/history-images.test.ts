import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HistoryFormat } from "@loupe/proto";
import { conversationOpening, historyImages } from "./history-images.js";

const thumbnail = { mediaType: "image/png", data: "VEhVTUI=" };
const replaceBoth = (format: HistoryFormat, body: Record<string, unknown>): Record<string, unknown> => {
  const images = historyImages(format, body);
  assert.deepEqual(
    images.map((image) => [image.mediaType, image.data]),
    [
      ["image/png", "QUFB"],
      ["image/jpeg", "QkJC"],
    ],
  );
  images[0]?.replace({ text: "ref" });
  images[1]?.replace({ text: "thumb", thumbnail });
  return body;
};

describe("historyImages(): inline images of each vendor format, replaced in place", () => {
  it("Anthropic: image blocks in messages and inside tool_result content", () => {
    const body = {
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "QUFB" } },
            { type: "text", text: "look" },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t", content: [{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: "QkJC" } }] },
          ],
        },
        { role: "user", content: [{ type: "image", source: { type: "url", url: "https://example.com/x.png" } }] },
      ],
    };
    assert.deepEqual(replaceBoth(HistoryFormat.ANTHROPIC, body).messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "ref" },
          { type: "text", text: "look" },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t",
            content: [
              { type: "image", source: { type: "base64", media_type: "image/png", data: "VEhVTUI=" } },
              { type: "text", text: "thumb" },
            ],
          },
        ],
      },
      { role: "user", content: [{ type: "image", source: { type: "url", url: "https://example.com/x.png" } }] },
    ]);
  });

  it("OpenAI Chat: image_url parts with data URLs", () => {
    const body = {
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "data:image/png;base64,QUFB" } },
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,QkJC" } },
          ],
        },
      ],
    };
    assert.deepEqual(replaceBoth(HistoryFormat.OPENAI_CHAT, body).messages, [
      {
        role: "user",
        content: [
          { type: "text", text: "ref" },
          { type: "image_url", image_url: { url: "data:image/png;base64,VEhVTUI=" } },
          { type: "text", text: "thumb" },
        ],
      },
    ]);
  });

  it("OpenAI Responses: input_image parts in messages and function_call_output", () => {
    const body = {
      input: [
        { role: "user", content: [{ type: "input_image", image_url: "data:image/png;base64,QUFB" }] },
        { type: "function_call_output", call_id: "c", output: [{ type: "input_image", image_url: "data:image/jpeg;base64,QkJC" }] },
      ],
    };
    assert.deepEqual(replaceBoth(HistoryFormat.OPENAI_RESPONSES, body).input, [
      { role: "user", content: [{ type: "input_text", text: "ref" }] },
      {
        type: "function_call_output",
        call_id: "c",
        output: [
          { type: "input_image", image_url: "data:image/png;base64,VEhVTUI=" },
          { type: "input_text", text: "thumb" },
        ],
      },
    ]);
  });

  it("Gemini: inlineData image parts (not other media)", () => {
    const body = {
      contents: [
        {
          role: "user",
          parts: [
            { inlineData: { mimeType: "image/png", data: "QUFB" } },
            { inlineData: { mimeType: "audio/wav", data: "AAAA" } },
            { inline_data: { mime_type: "image/jpeg", data: "QkJC" } },
          ],
        },
      ],
    };
    assert.deepEqual(replaceBoth(HistoryFormat.GEMINI, body).contents, [
      {
        role: "user",
        parts: [
          { text: "ref" },
          { inlineData: { mimeType: "audio/wav", data: "AAAA" } },
          { inlineData: { mimeType: "image/png", data: "VEhVTUI=" } },
          { text: "thumb" },
        ],
      },
    ]);
  });

  it("recognises a conversation by its system prompt and first message, not by what follows", () => {
    const opening = { system: "s", messages: [{ role: "user", content: "task" }] };
    assert.equal(conversationOpening({ ...opening, messages: [...opening.messages, { role: "assistant", content: "more" }] }), conversationOpening(opening));
    assert.notEqual(conversationOpening({ ...opening, system: "other" }), conversationOpening(opening));
  });
});
