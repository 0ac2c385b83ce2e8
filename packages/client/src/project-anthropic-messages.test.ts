import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { ProjectResponseSchema, type ProjectRequestSchema } from "@loupe/proto";
import type { AnthropicMessage } from "@loupe/conversation";
import { projectAnthropicMessages, type ProjectCaller } from "./project-anthropic-messages.js";

const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("base64");

/** A deterministic stand-in for Project: keeps the first line of each text part and passes media through. */
function firstLineProjector(): ProjectCaller & { requests: Array<MessageInitShape<typeof ProjectRequestSchema>> } {
  const requests: Array<MessageInitShape<typeof ProjectRequestSchema>> = [];
  return {
    requests,
    project: async (request) => {
      requests.push(request);
      const parts = (request.result?.parts ?? []).map((part) =>
        part.content?.case === "text"
          ? { content: { case: "text" as const, value: `${part.content.value.split("\n")[0] ?? ""}\n[loupe: rest omitted]` } }
          : part,
      );
      return create(ProjectResponseSchema, { parts, usage: { savedTokens: 10 } });
    },
  };
}

const messages: AnthropicMessage[] = [
  { role: "user", content: "Fix the failing test" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Running the tests and reading the file." },
      { type: "tool_use", id: "toolu_a", name: "Bash", input: { command: "npm test" } },
      { type: "tool_use", id: "toolu_b", name: "Read", input: { file_path: "src/a.ts" } },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_a", content: "FAIL a.test.ts\nexpected 1\nreceived 2", is_error: true },
      {
        type: "tool_result",
        tool_use_id: "toolu_b",
        content: [
          { type: "text", text: "1 export const a = 2;\n2 // end" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
        ],
      },
      { type: "tool_result", tool_use_id: "toolu_c", content: [{ type: "search_result", source: "https://example.com", title: "kept", content: [] }] },
      { type: "text", text: "also consider the README" },
    ],
  },
  { role: "assistant", content: "Done." },
];

describe("projectAnthropicMessages()", () => {
  it("replaces each tool_result's content with its view and keeps every other block, id, is_error and the order", async () => {
    const before = structuredClone(messages);
    const projector = firstLineProjector();
    const projected = await projectAnthropicMessages(projector, messages, { sessionId: "s1", source: "app", budgetTokens: 500 });
    assert.deepEqual(messages, before, "the input is unchanged");
    assert.equal(projected.projectedResults, 2);
    assert.equal(projected.savedTokens, 20);
    assert.deepEqual(projected.messages[0], messages[0]);
    assert.deepEqual(projected.messages[1], messages[1]);
    assert.deepEqual(projected.messages[3], messages[3]);
    assert.deepEqual(projected.messages[2]?.content, [
      { type: "tool_result", tool_use_id: "toolu_a", content: "FAIL a.test.ts\n[loupe: rest omitted]", is_error: true },
      {
        type: "tool_result",
        tool_use_id: "toolu_b",
        content: [
          { type: "text", text: "1 export const a = 2;\n[loupe: rest omitted]" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
        ],
      },
      { type: "tool_result", tool_use_id: "toolu_c", content: [{ type: "search_result", source: "https://example.com", title: "kept", content: [] }] },
      { type: "text", text: "also consider the README" },
    ]);
  });

  it("sends each result with its tool_use's name and input and the shared request fields, in order", async () => {
    const projector = firstLineProjector();
    await projectAnthropicMessages(projector, messages, { sessionId: "s1", source: "app", model: "claude-x", budgetTokens: 500, view: "concise" });
    assert.deepEqual(
      projector.requests.map((request) => [
        request.sessionId,
        request.source,
        request.model,
        request.budgetTokens,
        request.view,
        request.result?.toolUseId,
        request.result?.toolName,
        request.result?.argsJson,
        request.result?.isError,
      ]),
      [
        ["s1", "app", "claude-x", 500, "concise", "toolu_a", "Bash", '{"command":"npm test"}', true],
        ["s1", "app", "claude-x", 500, "concise", "toolu_b", "Read", '{"file_path":"src/a.ts"}', false],
      ],
    );
  });

  it("sends each result's intent: the task and the assistant text that asked for the call, unless one is given", async () => {
    const projector = firstLineProjector();
    await projectAnthropicMessages(projector, messages, {});
    assert.deepEqual(
      projector.requests.map((request) => request.intent),
      ["Fix the failing test\n\nRunning the tests and reading the file.", "Fix the failing test\n\nRunning the tests and reading the file."],
    );
    const given = firstLineProjector();
    await projectAnthropicMessages(given, messages, { intent: "why resolve_lookup fails" });
    assert.deepEqual(
      given.requests.map((request) => request.intent),
      ["why resolve_lookup fails", "why resolve_lookup fails"],
    );
  });

  it("passes through a tool_result without a matching tool_use with an empty tool name", async () => {
    const projector = firstLineProjector();
    const lone: AnthropicMessage[] = [{ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_z", content: "a\nb" }] }];
    const projected = await projectAnthropicMessages(projector, lone);
    assert.equal(projector.requests[0]?.result?.toolName, "");
    assert.deepEqual(projected.messages[0]?.content, [{ type: "tool_result", tool_use_id: "toolu_z", content: "a\n[loupe: rest omitted]" }]);
  });

  it("rejects with the error of a failed Project call", async () => {
    const failing: ProjectCaller = { project: () => Promise.reject(Object.assign(new Error("down"), { code: "unavailable" })) };
    await assert.rejects(projectAnthropicMessages(failing, messages), { message: "down" });
  });
});
