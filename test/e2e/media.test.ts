import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { applyProjectionToAnthropic, applyProjectionToOpenAiChat, createLoupeClient, toolResultFromAnthropic, type LoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import type { Media, Part } from "@loupe/proto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { png, wav } from "../support/media-fixtures.js";
import { runHook } from "../support/run-loupe-command.js";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n");
const log =
  Array.from({ length: 3000 }, (_, index) => `${String(index + 1).padStart(5, "0")} rendering frame ${String(index)} of the checkout page`).join("\n") +
  "\nerror: button overlaps the footer at 375px\n";

const mediaOf = (parts: readonly Part[]): Media[] => parts.flatMap((part) => (part.content.case === "media" ? [part.content.value] : []));

describe("media: shortened text, media unchanged after it, saved and readable by result id", () => {
  let loupe: EmbeddedLoupe;
  let sdk: LoupeClient;
  const image = png(64, 48);
  const audio = wav(4000);

  before(async () => {
    loupe = await startEmbeddedLoupe();
    sdk = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}` });
  });
  after(async () => {
    sdk.close();
    await loupe.stop();
  });

  it("through Project and the Anthropic and OpenAI helpers: image and PDF attached, audio named with where it is saved", async () => {
    const toolUse = { type: "tool_use" as const, id: "toolu_media", name: "browser_screenshot", input: { url: "http://localhost:3000/checkout" } };
    const toolResult = {
      type: "tool_result" as const,
      tool_use_id: "toolu_media",
      content: [
        { type: "text" as const, text: log },
        { type: "image" as const, source: { type: "base64" as const, media_type: "image/png", data: image.toString("base64") } },
        {
          type: "document" as const,
          source: { type: "base64" as const, media_type: "application/pdf" as const, data: PDF.toString("base64") },
          title: "report.pdf",
        },
      ],
    };
    const result = toolResultFromAnthropic(toolUse, toolResult);
    result.parts = [...(result.parts ?? []), { content: { case: "media", value: { mimeType: "audio/wav", data: audio, name: "narration.wav" } } }];
    const response = await sdk.project({ sessionId: "media", source: "browser", result });

    assert.deepEqual(
      response.parts.map((part) => part.content.case),
      ["text", "media", "media", "media"],
      "the text first, then every medium in order",
    );
    const [text] = response.parts;
    assert.ok(text?.content.case === "text" && text.content.value.length < log.length / 5 && /\[loupe/.test(text.content.value), "the text is shortened");
    assert.match(text.content.value, /error: button overlaps the footer/);
    const [savedImage, savedPdf, savedAudio] = mediaOf(response.parts);
    assert.ok(savedImage && savedPdf && savedAudio);
    assert.deepEqual(Buffer.from(savedImage.data), image, "the image is unchanged");
    assert.deepEqual([savedImage.mimeType, savedPdf.mimeType, savedAudio.mimeType], ["image/png", "application/pdf", "audio/wav"]);
    for (const medium of [savedImage, savedPdf, savedAudio]) assert.match(medium.resultId, /^r_/, `${medium.mimeType} saved as a result of its own`);

    const anthropic = applyProjectionToAnthropic(toolResult, response);
    const blocks = anthropic.content as { type: string; text?: string; source?: { data?: string; media_type?: string }; title?: string }[];
    assert.deepEqual(
      blocks.map((block) => block.type),
      ["text", "image", "document", "text"],
    );
    assert.equal(blocks[1]?.source?.data, image.toString("base64"));
    assert.deepEqual([blocks[2]?.source?.media_type, blocks[2]?.title], ["application/pdf", "report.pdf"]);
    assert.equal(
      blocks[3]?.text,
      `[loupe: medium not attached: name=narration.wav, mime_type=audio/wav, size_bytes=${String(audio.length)}; saved, read it with {"result_id":"${savedAudio.resultId}"}]`,
    );

    const chat = applyProjectionToOpenAiChat({ role: "tool", tool_call_id: "call_1", content: "" }, response);
    const notices = (typeof chat.content === "string" ? chat.content : "").split("\n").filter((line) => line.startsWith("[loupe: medium not attached"));
    assert.equal(notices.length, 3, "a Chat tool message carries text only: each medium is named, none dropped");
    for (const medium of [savedImage, savedPdf, savedAudio])
      assert.ok(
        notices.some((line) => line.includes(`{"result_id":"${medium.resultId}"}`)),
        medium.mimeType,
      );
  });

  it("serves a saved medium whole by its result id (gRPC and MCP read_result), and refuses a range of it", async () => {
    const take = wav(4100);
    const response = await sdk.project({
      sessionId: "media",
      result: {
        toolName: "record",
        parts: [
          { content: { case: "text", value: "recorded 0.5 s" } },
          { content: { case: "media", value: { mimeType: "audio/wav", data: take, name: "take.wav" } } },
        ],
      },
    });
    assert.equal(response.resultId, "", "the text fits: it comes back unchanged");
    const [medium] = mediaOf(response.parts);
    assert.ok(medium !== undefined && medium.resultId !== "", "a medium is saved even when the text fits");
    const read = await sdk.recover({ resultId: medium.resultId });
    const [served] = mediaOf(read.parts);
    assert.deepEqual([served?.mimeType, served?.name], ["audio/wav", "take.wav"]);
    assert.deepEqual(Buffer.from(served?.data ?? []), take);
    const small = await sdk.recover({ resultId: medium.resultId, budgetTokens: 64 });
    assert.deepEqual(Buffer.from(mediaOf(small.parts)[0]?.data ?? []), take, "a medium larger than one read's window is still answered whole");
    await assert.rejects(
      sdk.recover({ resultId: medium.resultId, startLine: 1 }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && /read whole/.test(error.message),
    );
    await assert.rejects(
      sdk.recover({ resultId: medium.resultId, jsonPointer: "" }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );

    const mcp = new Client({ name: "media-test", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${String(loupe.httpPort)}/mcp`)));
    try {
      const answer = await mcp.callTool({ name: "read_result", arguments: { result_id: medium.resultId } });
      const content = answer.content as { type: string; data?: string; mimeType?: string }[];
      assert.deepEqual(
        content.map((block) => block.type),
        ["text", "audio"],
      );
      assert.equal(content[1]?.data, take.toString("base64"));
    } finally {
      await mcp.close();
    }
  });

  it("through the PostToolUse hook: an MCP tool's long text is replaced by the view, its image block follows unchanged", async () => {
    const run = await runHook(
      "post-tool-use",
      {
        session_id: "media-hook",
        transcript_path: "/nonexistent/transcript.jsonl",
        cwd: ".",
        hook_event_name: "PostToolUse",
        tool_name: "mcp__browser__screenshot",
        tool_input: { url: "http://localhost:3000/checkout" },
        tool_response: [
          { type: "text", text: log },
          { type: "image", data: image.toString("base64"), mimeType: "image/png" },
        ],
        tool_use_id: "toolu_media_hook",
      },
      { LOUPE_ADDR: `127.0.0.1:${String(loupe.grpcPort)}` },
    );
    assert.equal(run.code, 0, run.stderr);
    const updated = (JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: { type: string; text?: string; data?: string }[] } })
      .hookSpecificOutput.updatedToolOutput;
    assert.deepEqual(
      updated.map((block) => block.type),
      ["text", "image"],
    );
    assert.ok((updated[0]?.text ?? "").length < log.length / 5);
    assert.match(updated[0]?.text ?? "", /error: button overlaps the footer/);
    assert.equal(updated[1]?.data, image.toString("base64"));
  });
});
