import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import { HistoryFormat } from "@loupe/proto";
import { startVendorServer, type VendorServer } from "@loupe/testing";
import sharp from "sharp";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { png } from "../support/media-fixtures.js";

type Block = { type: string; text?: string; source?: { data?: string; media_type?: string }; content?: Block[] };
type Message = { role: string; content: string | Block[] };

// Screenshots of a browser agent: A, B, A again (the page did not change), C, then D and E later.
const shots = { A: png(400, 300, 1), B: png(400, 300, 2), C: png(400, 300, 3), D: png(400, 300, 4), E: png(400, 300, 5) };
type Shot = keyof typeof shots;

function conversation(sequence: readonly Shot[]): Message[] {
  const messages: Message[] = [{ role: "user", content: "Check that the checkout page renders on mobile" }];
  sequence.forEach((shot, index) => {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `toolu_${String(index)}`, name: "screenshot", input: { step: index } } as Block] });
    messages.push({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: `toolu_${String(index)}`,
          content: [
            { type: "text", text: `step ${String(index)}` },
            { type: "image", source: { type: "base64", media_type: "image/png", data: shots[shot].toString("base64") } },
          ],
        } as Block,
      ],
    });
  });
  return messages;
}

/** What each screenshot became in a forwarded history: the shot, "ref", or "thumb". */
function shapes(messages: readonly Message[]): string[] {
  const byData = new Map(Object.entries(shots).map(([name, bytes]) => [bytes.toString("base64"), name]));
  return messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.flatMap((block) =>
          (block.content ?? []).flatMap((inner) => {
            if (inner.type === "image") return [byData.get(inner.source?.data ?? "") ?? "thumb"];
            if (/appears again later/.test(inner.text ?? "")) return ["ref"];
            return [];
          }),
        ),
  );
}

describe("screenshots that pile up: image_dedupe and image_keep_last in the history cut", () => {
  let vendor: VendorServer;
  let loupe: EmbeddedLoupe;
  let sdk: LoupeClient;
  const send = async (sequence: readonly Shot[]): Promise<Message[]> => {
    const response = await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "test-key", "anthropic-version": "2023-06-01", "x-loupe-source": "browser-agent" },
      body: JSON.stringify({ model: "claude-sonnet", max_tokens: 100, messages: conversation(sequence) }),
    });
    assert.equal(response.status, 200);
    return (JSON.parse(vendor.received.at(-1)?.body.toString("utf8") ?? "{}") as { messages: Message[] }).messages;
  };

  before(async () => {
    vendor = await startVendorServer();
    loupe = await startEmbeddedLoupe({ LOUPE_ANTHROPIC_BASE_URL: vendor.url });
    sdk = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}` });
    // A 1-second cache lifetime so the test can wait for a cold cache.
    await sdk.setSourceLimit({ source: "browser-agent", limit: { imageKeepLast: 2, imageDedupe: true, vendorCacheTtlSeconds: 1 } });
  });
  after(async () => {
    sdk.close();
    await loupe.stop();
    await vendor.close();
  });

  it("replaces a repeated image by a reference and older ones by a thumbnail with the saved original's id; a warm cache keeps the bytes", async () => {
    const first = await send(["A", "B", "A", "C"]);
    assert.deepEqual(shapes(first), ["ref", "thumb", "A", "C"]);
    const thumbBlock = (first[4]?.content as Block[])[0]?.content ?? [];
    const note = thumbBlock.find((block) => block.type === "text" && /thumbnail/.test(block.text ?? ""))?.text ?? "";
    assert.match(
      note,
      /^\[loupe\] image sha256:[0-9a-f]{12} \(image\/png, 400×300, [\d,]+ bytes\) shown as a 160×120 thumbnail; the original: \{"result_id":"r_[\w-]+"\}$/,
    );
    const thumbnail = Buffer.from(thumbBlock.find((block) => block.type === "image")?.source?.data ?? "", "base64");
    const meta = await sharp(thumbnail).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ["png", 160, 120], "a real, small image");

    // The original is readable by its id, byte for byte.
    const resultId = (JSON.parse(/\{"result_id":"[^"]+"\}/.exec(note)?.[0] ?? "{}") as { result_id: string }).result_id;
    const original = await sdk.recover({ resultId });
    const medium = original.parts[0]?.content;
    assert.ok(medium?.case === "media");
    assert.deepEqual(Buffer.from(medium.value.data), shots.B);

    // Warm: the next request (two new screenshots) keeps the earlier bytes; nothing new is replaced.
    const warm = await send(["A", "B", "A", "C", "D", "E"]);
    assert.deepEqual(shapes(warm), ["ref", "thumb", "A", "C", "D", "E"]);
    assert.equal(JSON.stringify(warm.slice(0, first.length)), JSON.stringify(first), "the prefix the vendor cached is byte-identical");

    // Cold (no request for longer than the cache lifetime): the new decisions apply.
    await sleep(1200);
    const cold = await send(["A", "B", "A", "C", "D", "E"]);
    assert.deepEqual(shapes(cold), ["ref", "thumb", "thumb", "thumb", "D", "E"]);
    assert.equal(JSON.stringify(cold[4]), JSON.stringify(first[4]), "a thumbnail made once is the same bytes every time");
  });

  it("lets a named session's images change at a Compact, even while the cache is warm", async () => {
    await sdk.setSourceLimit({ source: "compacting-agent", limit: { imageKeepLast: 1, vendorCacheTtlSeconds: 3600 } });
    const cut = async (sequence: readonly Shot[]): Promise<string[]> => {
      const historyJson = new TextEncoder().encode(JSON.stringify({ model: "m", max_tokens: 1, messages: conversation(sequence) }));
      const answer = await sdk.cutHistory({ source: "compacting-agent", sessionId: "conv-c", format: HistoryFormat.ANTHROPIC, historyJson });
      return shapes((JSON.parse(new TextDecoder().decode(answer.historyJson)) as { messages: Message[] }).messages);
    };
    assert.deepEqual(await cut(["A", "B"]), ["thumb", "B"]);
    assert.deepEqual(await cut(["A", "B", "C"]), ["thumb", "B", "C"], "warm: the earlier bytes stay");
    await sdk.appendTurns({
      sessionId: "conv-c",
      source: "compacting-agent",
      turns: [{ seq: 1, role: "user", parts: [{ content: { case: "text", value: "Check the checkout page" } }] }],
      contextWindowTokens: 100_000,
    });
    await sdk.compact({ sessionId: "conv-c", format: HistoryFormat.ANTHROPIC, contextLimitTokens: 100_000 });
    assert.deepEqual(await cut(["A", "B", "C"]), ["thumb", "thumb", "C"], "after a Compact the new decisions apply");
  });

  it("over gRPC CutHistory: a named session, the replaced count, and the history as it was when the rule is off", async () => {
    const historyJson = new TextEncoder().encode(JSON.stringify({ model: "m", max_tokens: 1, messages: conversation(["A", "A", "B"]) }));
    const cut = await sdk.cutHistory({ source: "browser-agent", sessionId: "grpc-session", format: HistoryFormat.ANTHROPIC, historyJson });
    assert.equal(cut.replacedImages, 1);
    assert.deepEqual(shapes((JSON.parse(new TextDecoder().decode(cut.historyJson)) as { messages: Message[] }).messages), ["ref", "A", "B"]);
    const off = await sdk.cutHistory({ source: "another-agent", format: HistoryFormat.ANTHROPIC, historyJson });
    assert.deepEqual(Buffer.from(off.historyJson), Buffer.from(historyJson), "an app without the rule gets its history byte-identical");
    await assert.rejects(
      sdk.setSourceLimit({ source: "browser-agent", limit: { vendorCacheTtlSeconds: 0 } }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
    await assert.rejects(
      sdk.cutHistory({ source: "browser-agent", sessionId: "s".repeat(300), format: HistoryFormat.ANTHROPIC, historyJson }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
  });
});
