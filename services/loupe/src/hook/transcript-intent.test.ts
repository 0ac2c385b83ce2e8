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

describe("contextFromPayload() with earlier messages", () => {
  it("puts the plugin's earlier messages (their calls' input) before the task and the asking text, oldest first; non-strings are left out", () => {
    const earlier = ["It is in django/x.py.\n[bash] sed -n 398,500p django/x.py", 7, null, "[read] /w/django/y.py 10"];
    assert.deepEqual(contextFromPayload({ loupe_context: { task: "Fix resolve_lookup_table", earlier, asking: "Let me read it.", model: "gpt-4.1" } }), {
      intent: "It is in django/x.py.\n[bash] sed -n 398,500p django/x.py\n\n[read] /w/django/y.py 10\n\nFix resolve_lookup_table\n\nLet me read it.",
      model: "gpt-4.1",
    });
    assert.equal(contextFromPayload({ loupe_context: { task: "t", earlier: "[bash] ls", asking: "a" } })?.intent, "t\n\na");
  });

  it("keeps the last 64 earlier messages", () => {
    const earlier = Array.from({ length: 70 }, (_, index) => `m${String(index)}`);
    const intent = contextFromPayload({ loupe_context: { task: "t", earlier, asking: "a" } })?.intent ?? "";
    assert.equal(intent, [...earlier.slice(6), "t", "a"].join("\n\n"));
    assert.ok(!intent.includes("m5\n"));
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
