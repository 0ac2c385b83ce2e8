import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Turn, TurnPart } from "../turn.js";
import type { RenderedAnthropicMessage as AnthropicMessage } from "./anthropic-message.js";
import type { OpenAIChatMessage } from "./openai-chat-message.js";
import { renderAnthropicMessages } from "./render-anthropic-messages.js";
import { renderOpenAIChatMessages } from "./render-openai-chat-messages.js";
import { renderTurnText } from "./render-turn-text.js";

/** Random histories: ids from a small pool so calls, results, orphans, repeats and late answers all occur. */
function arbitraryTurns(): fc.Arbitrary<Turn[]> {
  const id = fc.constantFrom("t1", "t2", "t3", "t4");
  const part = fc.oneof(
    fc.string({ maxLength: 6 }).map((text): TurnPart => ({ type: "text", text })),
    fc.constant<TurnPart>({ type: "json", json: '{"k":1}' }),
    fc.constant<TurnPart>({ type: "media", mimeType: "image/png", data: "AAAA" }),
    fc.constant<TurnPart>({ type: "media", mimeType: "text/plain", uri: "file:///a.txt" }),
  );
  const toolCall = fc.record({ toolUseId: id, name: fc.constantFrom("Bash", "Read"), argsJson: fc.constantFrom("", "{}", '{"a":1}', "[1]", "x") });
  const toolResult = fc.record({ toolUseId: id, toolName: fc.constantFrom("Bash", "Read"), parts: fc.array(part, { maxLength: 2 }), isError: fc.boolean() });
  const oneTurn = fc.record({
    role: fc.constantFrom<Turn["role"]>("user", "assistant"),
    parts: fc.array(part, { maxLength: 2 }),
    toolCalls: fc.array(toolCall, { maxLength: 2 }),
    toolResults: fc.array(toolResult, { maxLength: 2 }),
  });
  return fc.array(oneTurn, { maxLength: 10 }).map((drafts) =>
    drafts.map((draft, index) => ({
      seq: index + 1,
      role: draft.role,
      parts: draft.parts,
      toolCalls: draft.role === "assistant" ? draft.toolCalls : [],
      toolResults: draft.role === "user" ? draft.toolResults : [],
      tokenCount: 1,
    })),
  );
}

const countResults = (turns: Turn[]): number => turns.reduce((sum, item) => sum + item.toolResults.length, 0);

describe("renderers (properties)", () => {
  it("Anthropic: every tool_result answers a tool_use of the message right before it, every tool_use is answered, or it became text", () => {
    fc.assert(
      fc.property(arbitraryTurns(), (turns) => {
        const frozen = JSON.stringify(turns);
        const messages = renderAnthropicMessages(turns);
        assert.equal(JSON.stringify(turns), frozen, "input untouched");
        assert.deepEqual(renderAnthropicMessages(structuredClone(turns)), messages, "deterministic");
        assertAnthropicValid(messages);
        const blocks = messages.flatMap((message) => message.content);
        const rendered = blocks.filter((block) => block.type === "tool_result" || (block.type === "text" && block.text.startsWith("[tool result "))).length;
        assert.equal(rendered, countResults(turns), "each result is rendered once, as a block or as text");
      }),
      { numRuns: 500 },
    );
  });

  it("OpenAI: every tool message answers a call of the assistant message before it, every call is answered, or it became text", () => {
    fc.assert(
      fc.property(arbitraryTurns(), fc.constantFrom("", "be brief"), (turns, systemPrompt) => {
        const messages = renderOpenAIChatMessages(turns, systemPrompt);
        assert.deepEqual(renderOpenAIChatMessages(structuredClone(turns), systemPrompt), messages, "deterministic");
        assert.equal(messages[0]?.role === "system", systemPrompt !== "");
        assertOpenAIValid(messages);
        const orphans = messages
          .flatMap((message) => (message.role === "user" && typeof message.content === "string" ? message.content.split("\n") : []))
          .filter((line) => line.startsWith("[tool result "));
        const imageOrphans = messages
          .flatMap((message) => (message.role === "user" && Array.isArray(message.content) ? message.content : []))
          .filter((part) => part.type === "text" && part.text.startsWith("[tool result "));
        const tools = messages.filter((message) => message.role === "tool").length;
        assert.equal(tools + orphans.length + imageOrphans.length, countResults(turns), "each result is rendered once");
      }),
      { numRuns: 500 },
    );
  });

  it("round-trips tool_use_id pairing of well-formed exchanges in both formats", () => {
    const exchange = fc.tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 1, max: 3 }));
    fc.assert(
      fc.property(fc.array(exchange, { minLength: 1, maxLength: 5 }), (exchanges) => {
        const turns: Turn[] = [];
        const ids: string[] = [];
        exchanges.forEach(([text, calls], index) => {
          const callIds = Array.from({ length: calls }, (_, call) => `toolu_${String(index)}_${String(call)}`);
          ids.push(...callIds);
          turns.push({ seq: turns.length + 1, role: "user", parts: [{ type: "text", text }], toolCalls: [], toolResults: [], tokenCount: 1 });
          turns.push({
            seq: turns.length + 1,
            role: "assistant",
            parts: [],
            toolCalls: callIds.map((toolUseId) => ({ toolUseId, name: "Bash", argsJson: "{}" })),
            toolResults: [],
            tokenCount: 1,
          });
          turns.push({
            seq: turns.length + 1,
            role: "user",
            parts: [],
            toolCalls: [],
            toolResults: callIds.map((toolUseId) => ({ toolUseId, toolName: "Bash", parts: [{ type: "text", text: toolUseId }], isError: false })),
            tokenCount: 1,
          });
        });
        const blocks = renderAnthropicMessages(turns).flatMap((message) => message.content);
        assert.deepEqual(
          blocks.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
          ids,
        );
        assert.deepEqual(
          blocks.flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id] : [])),
          ids,
        );
        const chat = renderOpenAIChatMessages(turns, "");
        assert.deepEqual(
          chat.flatMap((message) => (message.role === "assistant" ? (message.tool_calls ?? []).map((toolCall) => toolCall.id) : [])),
          ids,
        );
        assert.deepEqual(
          chat.flatMap((message) => (message.role === "tool" ? [message.tool_call_id] : [])),
          ids,
        );
      }),
    );
  });

  it("plain text: deterministic and starts with the turn address", () => {
    fc.assert(
      fc.property(arbitraryTurns(), (turns) => {
        for (const turn of turns) {
          const text = renderTurnText(turn);
          assert.equal(text, renderTurnText(structuredClone(turn)));
          assert.ok(text.startsWith(`turn:${String(turn.seq)} ${turn.role}`));
        }
      }),
    );
  });
});

/** The vendor's rules, written independently of the renderer. */
function assertAnthropicValid(messages: AnthropicMessage[]): void {
  const ids = new Set<string>();
  messages.forEach((message, index) => {
    assert.equal(message.role, index % 2 === 0 ? "user" : "assistant", "alternating, starting with user");
    assert.ok(message.content.length > 0, "no empty message");
    for (const block of message.content) if (block.type === "text") assert.ok(block.text.trim() !== "", "no blank text");
    const uses = message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
    for (const id of uses) assert.ok(!ids.has(id), "unique tool_use ids");
    uses.forEach((id) => ids.add(id));
    const answers = (messages[index + 1]?.content ?? []).flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id] : []));
    for (const id of uses) assert.ok(answers.includes(id), `tool_use ${id} answered in the next message`);
    const previousUses = (messages[index - 1]?.content ?? []).flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
    const firstOther = message.content.findIndex((block) => block.type !== "tool_result");
    message.content.forEach((block, position) => {
      if (block.type !== "tool_result") return;
      assert.ok(previousUses.includes(block.tool_use_id), `tool_result ${block.tool_use_id} follows its tool_use`);
      assert.ok(firstOther === -1 || position < firstOther, "tool_result blocks come first");
    });
  });
}

/** OpenAI's rules: a tool message follows the assistant message with its call (only tool messages between), and every call is answered so. */
function assertOpenAIValid(messages: OpenAIChatMessage[]): void {
  let open: Set<string> | undefined;
  const pending = (): void => assert.ok(open === undefined || open.size === 0, `unanswered calls ${[...(open ?? [])].join(",")}`);
  for (const message of messages) {
    if (message.role === "tool") {
      assert.ok(open?.has(message.tool_call_id) === true, `tool message ${message.tool_call_id} follows its call`);
      open.delete(message.tool_call_id);
      continue;
    }
    pending();
    if (message.role === "assistant") {
      assert.ok(message.content !== null || (message.tool_calls?.length ?? 0) > 0, "assistant has content or calls");
      assert.notDeepEqual(message.tool_calls, [], "no empty tool_calls");
      open = new Set(message.tool_calls?.map((toolCall) => toolCall.id));
    } else {
      open = undefined;
      if (message.role === "user") assert.ok(message.content.length > 0, "no empty user message");
    }
  }
  pending();
}
