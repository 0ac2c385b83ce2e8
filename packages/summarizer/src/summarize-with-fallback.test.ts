import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { NoteUpdateInput, Summarizer } from "@loupe/conversation";
import { AppError, isAppError } from "@loupe/errors";
import { summarizeWithFallback } from "./summarize-with-fallback.js";

const input: NoteUpdateInput = {
  systemPrompt: "",
  toolsJson: "",
  previous: { text: "Objective: fix the parser (vendor note)", coveredThroughSeq: 1, version: 1, state: "", author: "anthropic" },
  coveredTurns: [],
  newTurns: [
    { seq: 2, role: "assistant", parts: [{ type: "text", text: "I'll guard parse() in src/parser.ts." }], toolCalls: [], toolResults: [], tokenCount: 12 },
  ],
  maxNoteTokens: 500,
};
const failing = (code: "permission_denied" | "unavailable"): Summarizer => ({
  name: "anthropic",
  summarize: () => Promise.reject(new AppError(code, "vendor says no")),
});

describe("summarizeWithFallback", () => {
  it("lets the extractive summarizer write the note when a vendor fails for good, keeping the vendor's earlier text", async () => {
    const { draft, author, failedCode } = await summarizeWithFallback(failing("permission_denied"), input);
    assert.deepEqual([author, failedCode], ["extractive", "permission_denied"]);
    assert.match(draft.text, /vendor note/);
    assert.match(draft.text, /turn:2/);
  });

  it("throws a retryable failure while attempts remain, and falls back on the last", async () => {
    await assert.rejects(
      summarizeWithFallback(failing("unavailable"), input, { lastAttempt: false }),
      (error) => isAppError(error) && error.code === "unavailable",
    );
    assert.equal((await summarizeWithFallback(failing("unavailable"), input, { lastAttempt: true })).failedCode, "unavailable");
  });

  it("never falls back from a cancelled call", async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(summarizeWithFallback(failing("unavailable"), input, { signal: controller.signal }));
  });
});
