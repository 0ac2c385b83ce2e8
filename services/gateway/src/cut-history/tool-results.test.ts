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
});
