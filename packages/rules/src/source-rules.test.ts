import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { isAppError } from "@loupe/errors";
import { SourceLimitSchema } from "@loupe/proto";
import { createMemoryStateStore } from "@loupe/state-store";
import { createSourceRules, DEFAULT_SOURCE_RULE } from "./index.js";

const patch = (fields: Parameters<typeof create<typeof SourceLimitSchema>>[1]) => create(SourceLimitSchema, fields);
const refused = (pattern: RegExp) => (error: unknown) => isAppError(error) && error.code === "invalid_argument" && pattern.test(error.message);

describe("source rules", () => {
  it("start from the defaults: cut off, head and tail 3,000, bash/shell/execute", async () => {
    const rules = createSourceRules(createMemoryStateStore());
    assert.deepEqual(await rules.get("local", "app"), DEFAULT_SOURCE_RULE);
  });

  it("update partially: fields left out keep their stored values; every change bumps the version", async () => {
    const rules = createSourceRules(createMemoryStateStore());
    await rules.update("local", "app", patch({ budgetTokens: 800, mode: "project" }));
    const cut = await rules.update(
      "local",
      "app",
      patch({ keepLimitChars: 10_000, keepHeadChars: 2000, keepTailChars: 2000, keepTools: { values: ["Bash", "execute"] } }),
    );
    assert.equal(cut.budgetTokens, 800, "changing the cut keeps the app's other settings");
    assert.equal(cut.mode, "project");
    assert.deepEqual(cut.keepTools, ["Bash", "execute"]);
    assert.equal(cut.version, 2);
    const zero = await rules.update("local", "app", patch({ budgetTokens: 0 }));
    assert.equal(zero.budgetTokens, 0, "an explicit 0 is a value, not an absent field");
    assert.equal(zero.keepLimitChars, 10_000);
  });

  it("refuse a limit not larger than head + tail + 200, saying why, and keep the stored rule", async () => {
    const rules = createSourceRules(createMemoryStateStore());
    await assert.rejects(rules.update("local", "app", patch({ keepLimitChars: 6100 })), refused(/keep_limit_chars/));
    assert.equal((await rules.get("local", "app")).version, 0);
  });

  it("refuse a summarizer key in clear and unknown modes or drivers", async () => {
    const rules = createSourceRules(createMemoryStateStore());
    const key = ["sk-ant-api03-", "x".repeat(40)].join("");
    await assert.rejects(rules.update("local", "app", patch({ summarizer: { keyRef: key } })), refused(/key_ref/));
    await assert.rejects(rules.update("local", "app", patch({ mode: "shrink" })), refused(/mode/));
    await assert.rejects(rules.update("local", "app", patch({ summarizer: { driver: "gemini" } })), refused(/driver/));
    const ok = await rules.update("local", "app", patch({ summarizer: { driver: "anthropic", keyRef: "env:ANTHROPIC_API_KEY", model: "claude" } }));
    assert.equal(ok.summarizer.keyRef, "env:ANTHROPIC_API_KEY");
  });

  it("apply concurrent updates of different fields without losing any", async () => {
    const rules = createSourceRules(createMemoryStateStore());
    await Promise.all(
      Array.from({ length: 10 }, (_, index) => rules.update("local", "app", index % 2 === 0 ? patch({ budgetTokens: 500 }) : patch({ mode: "project" }))),
    );
    const rule = await rules.get("local", "app");
    assert.equal(rule.version, 10);
    assert.equal(rule.budgetTokens, 500);
    assert.equal(rule.mode, "project");
  });

  it("keep tenants and sources apart", async () => {
    const rules = createSourceRules(createMemoryStateStore());
    await rules.update("local", "a", patch({ budgetTokens: 900 }));
    assert.equal((await rules.get("local", "b")).budgetTokens, 0);
    assert.equal((await rules.get("other", "a")).budgetTokens, 0);
  });

  it("keep the compaction point and note threshold per source, refusing a note threshold at or above the point", async () => {
    const rules = createSourceRules(createMemoryStateStore());
    assert.equal((await rules.get("local", "app")).compactAtPercent, 80);
    assert.equal((await rules.get("local", "app")).noteUpdatePercent, 20);
    await rules.update("local", "app", patch({ compactAtPercent: 70, summarizer: { driver: "anthropic", keyRef: "env:ANTHROPIC_API_KEY" } }));
    const rule = await rules.update("local", "app", patch({ noteUpdatePercent: 30 }));
    assert.deepEqual(
      [rule.compactAtPercent, rule.noteUpdatePercent, rule.summarizer.driver, rule.summarizer.keyRef],
      [70, 30, "anthropic", "env:ANTHROPIC_API_KEY"],
    );
    await assert.rejects(rules.update("local", "app", patch({ noteUpdatePercent: 70 })), refused(/note_update_percent/));
    await assert.rejects(rules.update("local", "app", patch({ compactAtPercent: 5 })), refused(/compact_at_percent/));
    await assert.rejects(
      rules.update("local", "app", patch({ summarizer: { keyRef: "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789" } })),
      refused(/never the key itself/),
    );
    assert.equal((await rules.get("local", "app")).noteUpdatePercent, 30);
  });
});
