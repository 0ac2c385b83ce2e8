import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTokenCounter } from "@loupe/projection";
import { HistoryFormat } from "@loupe/proto";
import { cutHistory } from "./cut-history.js";

const counter = createTokenCounter();
const rule = { keepLimitChars: 8000, keepHeadChars: 3000, keepTailChars: 3000, keepTools: ["bash", "shell", "execute"] };
const long = Array.from({ length: 2000 }, (_, index) => `line ${String(index)} of a long build log\n`).join("");
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2));
const parse = (value: Uint8Array) => JSON.parse(new TextDecoder().decode(value)) as Record<string, unknown>;

const anthropic = {
  model: "claude",
  messages: [
    { role: "user", content: "fix the build" },
    {
      role: "assistant",
      content: [
        { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "make" } },
        { type: "tool_use", id: "toolu_2", name: "Read", input: { path: "a" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: long, is_error: true },
        { type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: long }] },
      ],
    },
  ],
};
const chat = {
  model: "gpt",
  messages: [
    { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "shell", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "call_1", content: long },
  ],
};
const responses = {
  model: "gpt",
  input: [
    { type: "function_call", call_id: "c1", name: "execute", arguments: "{}" },
    { type: "function_call_output", call_id: "c1", output: long },
  ],
};

describe("cutHistory()", () => {
  it("cuts eligible Anthropic tool results (tool names case-insensitive), keeps ids, flags and the tool exchange", () => {
    const result = cutHistory(HistoryFormat.ANTHROPIC, bytes(anthropic), rule, counter);
    assert.equal(result.cutResults, 1, "Bash is eligible; Read is not");
    assert.ok(result.savedTokens > 1000);
    const body = parse(result.historyJson) as typeof anthropic;
    const blocks = body.messages[2]?.content as Array<{ tool_use_id: string; content: unknown; is_error?: boolean }>;
    assert.equal(blocks[0]?.tool_use_id, "toolu_1");
    assert.equal(blocks[0]?.is_error, true);
    assert.match(
      String(blocks[0]?.content),
      /^line 0 [\s\S]*\n\[loupe: lines [\d,]+–[\d,]+ of 2,000 omitted \([\d,]+ characters\)\]\nline \d+ of a long build log\n[\s\S]*line 1999 of a long build log\n$/,
    );
    assert.deepEqual(blocks[1]?.content, [{ type: "text", text: long }], "read results are never cut");
  });

  it("cuts OpenAI chat and Responses tool outputs", () => {
    assert.equal(cutHistory(HistoryFormat.OPENAI_CHAT, bytes(chat), rule, counter).cutResults, 1);
    const cut = cutHistory(HistoryFormat.OPENAI_RESPONSES, bytes(responses), rule, counter);
    assert.equal(cut.cutResults, 1);
    assert.ok(String((parse(cut.historyJson)["input"] as Array<{ output?: string }>)[1]?.output).includes(" omitted ("));
  });

  it("forwards byte-identical when nothing is eligible, and gives the same bytes on every call", () => {
    const input = bytes({ model: "claude", messages: [{ role: "user", content: "hi" }] });
    assert.equal(cutHistory(HistoryFormat.ANTHROPIC, input, rule, counter).historyJson, input);
    assert.equal(cutHistory(HistoryFormat.ANTHROPIC, bytes(anthropic), { ...rule, keepLimitChars: 0 }, counter).cutResults, 0);
    const first = cutHistory(HistoryFormat.ANTHROPIC, bytes(anthropic), rule, counter).historyJson;
    const second = cutHistory(HistoryFormat.ANTHROPIC, bytes(anthropic), rule, counter).historyJson;
    assert.deepEqual(second, first);
    // A history that already went through the cut (the next request carries it again) is stable.
    const again = cutHistory(HistoryFormat.ANTHROPIC, first, rule, counter);
    assert.equal(again.cutResults, 0);
    assert.equal(again.historyJson, first);
  });

  it("refuses what is not a request body", () => {
    assert.throws(() => cutHistory(HistoryFormat.ANTHROPIC, new TextEncoder().encode("[1,2]"), rule, counter), /JSON object/);
    assert.throws(() => cutHistory(HistoryFormat.UNSPECIFIED, bytes(anthropic), rule, counter), /format/);
    assert.throws(() => cutHistory(HistoryFormat.ANTHROPIC, new Uint8Array([0xff, 0xfe]), rule, counter), /not valid UTF-8 JSON/);
  });
});
