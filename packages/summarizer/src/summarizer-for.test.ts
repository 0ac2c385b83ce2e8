import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createSummarizerFor, summarizerDefaults } from "./summarizer-for.js";

const none = { driver: "", model: "", baseUrl: "", keyRef: "" };
const turn = { seq: 1, role: "user" as const, parts: [{ type: "text" as const, text: "fix the parser" }], toolCalls: [], toolResults: [], tokenCount: 4 };

describe("createSummarizerFor", () => {
  it("is extractive unless a driver is set by the source or the environment, and caches instances", () => {
    const choose = createSummarizerFor(summarizerDefaults({}), {});
    assert.equal(choose(none).name, "extractive");
    const fromEnv = createSummarizerFor(summarizerDefaults({ LOUPE_SUMMARIZER_DRIVER: "anthropic", LOUPE_SUMMARIZER_KEY_REF: "env:K" }), { K: "sk-test" });
    assert.equal(fromEnv(none).name, "anthropic");
    assert.equal(fromEnv(none), fromEnv(none));
    assert.equal(fromEnv({ ...none, driver: "openai" }).name, "openai");
  });

  it("answers a missing key with failed_precondition naming the reference, never a key", async () => {
    const choose = createSummarizerFor(none, {});
    const summarizer = choose({ driver: "anthropic", model: "m", baseUrl: "", keyRef: "env:ABSENT_KEY" });
    await assert.rejects(
      summarizer.summarize({ systemPrompt: "", toolsJson: "", previous: undefined, coveredTurns: [], newTurns: [turn], maxNoteTokens: 500 }),
      (error) => isAppError(error) && error.code === "failed_precondition" && error.message.includes("env:ABSENT_KEY"),
    );
  });

  it("finds a key set after a first attempt failed (a failed set-up is not kept)", () => {
    const env: NodeJS.ProcessEnv = {};
    const choose = createSummarizerFor(none, env);
    const settings = { driver: "anthropic", model: "m", baseUrl: "", keyRef: "env:LATE_KEY" };
    const before = choose(settings);
    env["LATE_KEY"] = "sk-late";
    const after = choose(settings);
    assert.notEqual(after, before, "built again once the key is there");
    assert.equal(choose(settings), after, "and kept from then on");
  });
});
