import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contextFromPayload, contextFromTranscript } from "./transcript-intent.js";

describe("contextFromPayload()", () => {
  it("composes what a plugin passed (OpenCode's loupe_context) into an intent and a model", () => {
    assert.deepEqual(contextFromPayload({ loupe_context: { task: "Fix resolve_lookup_table", asking: "Let me read it.", model: "gpt-4.1" } }), {
      intent: "Fix resolve_lookup_table\n\nLet me read it.",
      model: "gpt-4.1",
    });
    assert.deepEqual(contextFromPayload({ loupe_context: { task: 3, asking: null } }), { intent: "", model: "" });
    assert.equal(contextFromPayload({}), undefined);
    assert.equal(contextFromPayload({ loupe_context: "text" }), undefined);
  });
});

describe("contextFromTranscript()", () => {
  it("gives nothing for OpenCode (no transcript file), no path or a file that cannot be read", async () => {
    const nothing = { intent: "", model: "" };
    assert.deepEqual(await contextFromTranscript("opencode", "/tmp/x.jsonl", "c"), nothing);
    assert.deepEqual(await contextFromTranscript("claude-code", "", "c"), nothing);
    assert.deepEqual(await contextFromTranscript("codex", "/nonexistent/rollout.jsonl", "c"), nothing);
  });
});
