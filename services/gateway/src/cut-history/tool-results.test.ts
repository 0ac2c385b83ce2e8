import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { geminiToolResults } from "./gemini-tool-results.js";
import { anthropicToolResults, openAiChatToolResults, openAiResponsesToolResults } from "./tool-results.js";

const TASK = "Find why resolve_lookup fails";
const ASKING = "Searching the log for resolve_lookup.";
const INTENT = `${TASK}\n\n${ASKING}`;

describe("history tool results carry their call's intent (the task and the message that made the call)", () => {
  it("Anthropic Messages", () => {
    const [result] = anthropicToolResults({
      messages: [
        { role: "user", content: TASK },
        {
          role: "assistant",
          content: [
            { type: "text", text: ASKING },
            { type: "tool_use", id: "t1", name: "Bash", input: {} },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "log" }] },
      ],
    });
    assert.deepEqual([result?.toolName, result?.intent], ["Bash", INTENT]);
  });

  it("OpenAI Chat Completions", () => {
    const [result] = openAiChatToolResults({
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: TASK },
        { role: "assistant", content: ASKING, tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "log" },
      ],
    });
    assert.deepEqual([result?.toolName, result?.intent], ["bash", INTENT]);
  });

  it("OpenAI Responses", () => {
    const [result] = openAiResponsesToolResults({
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: TASK }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: ASKING }] },
        { type: "function_call", call_id: "c1", name: "exec_command", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "log" },
      ],
    });
    assert.deepEqual([result?.toolName, result?.intent], ["exec_command", INTENT]);
  });

  it("Gemini", () => {
    const [result] = geminiToolResults({
      contents: [
        { role: "user", parts: [{ text: TASK }] },
        { role: "model", parts: [{ text: ASKING }, { functionCall: { id: "run_1", name: "run_shell_command", args: {} } }] },
        { role: "user", parts: [{ functionResponse: { id: "run_1", name: "run_shell_command", response: { output: "log" } } }] },
      ],
    });
    assert.deepEqual([result?.toolName, result?.intent], ["run_shell_command", INTENT]);
  });

  it("a later call's intent holds the earlier messages and their calls, fixed by the history before its result", () => {
    const messages = (more: unknown[]): unknown[] => [
      { role: "user", content: TASK },
      {
        role: "assistant",
        content: "Listing first.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls src"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "a.ts\nb.ts" },
      {
        role: "assistant",
        content: ASKING,
        tool_calls: [{ id: "c2", type: "function", function: { name: "bash", arguments: '{"command":"grep -n x src/a.ts"}' } }],
      },
      { role: "tool", tool_call_id: "c2", content: "log" },
      ...more,
    ];
    const later = `Listing first.\n[bash] ls src\n\n${TASK}\n\n${ASKING}`;
    assert.deepEqual(
      openAiChatToolResults({ messages: messages([]) }).map((result) => result.intent),
      [INTENT.replace(ASKING, "Listing first."), later],
    );
    const grown = openAiChatToolResults({
      messages: messages([{ role: "assistant", content: "More.", tool_calls: [{ id: "c3", type: "function", function: { name: "bash", arguments: "{}" } }] }]),
    });
    assert.equal(grown[1]?.intent, later, "what comes after a result does not change its intent");
  });

  it("OpenAI Responses: calls given one by one after one message are that message's", () => {
    const results = openAiResponsesToolResults({
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: TASK }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: ASKING }] },
        { type: "function_call", call_id: "c1", name: "exec_command", arguments: '{"cmd":"ls"}' },
        { type: "function_call", call_id: "c2", name: "exec_command", arguments: '{"cmd":"pwd"}' },
        { type: "function_call_output", call_id: "c1", output: "a" },
        { type: "function_call_output", call_id: "c2", output: "b" },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Reading." }] },
        { type: "function_call", call_id: "c3", name: "exec_command", arguments: '{"cmd":"cat a"}' },
        { type: "function_call_output", call_id: "c3", output: "c" },
      ],
    });
    assert.deepEqual(
      results.map((result) => result.intent),
      [INTENT, INTENT, `${ASKING}\n[exec_command] ls\n[exec_command] pwd\n\n${TASK}\n\nReading.`],
    );
  });

  it("Gemini calls known by their name only: each result keeps the intent of the call before it, read after the walk", () => {
    const results = geminiToolResults({
      contents: [
        { role: "user", parts: [{ text: TASK }] },
        { role: "model", parts: [{ text: "First look." }, { functionCall: { name: "run_shell_command", args: { command: "ls" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "run_shell_command", response: { output: "a" } } }] },
        { role: "model", parts: [{ text: "Second look." }, { functionCall: { name: "run_shell_command", args: { command: "pwd" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "run_shell_command", response: { output: "b" } } }] },
      ],
    });
    assert.deepEqual(
      results.map((result) => result.intent),
      [`${TASK}\n\nFirst look.`, `First look.\n[run_shell_command] ls\n\n${TASK}\n\nSecond look.`],
    );
  });
});
