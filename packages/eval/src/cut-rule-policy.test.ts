import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { cutHeadTail } from "@loupe/projection";
import type { CorpusRow } from "./corpus-row.js";
import { createCutRulePolicy, parseRuleSpec, SEED_RULE } from "./cut-rule-policy.js";
import { fixtureRow } from "./testing/fixture-rows.js";

function row(output: string, tool: string, args: unknown): CorpusRow {
  return fixtureRow(1, output, "", { agentSystem: "test", trajectoryId: "t", tool, args });
}

describe("createCutRulePolicy()", () => {
  const seed = createCutRulePolicy("seed-rule", SEED_RULE);
  const text = Array.from({ length: 1000 }, (_, index) => `row ${String(index).padStart(4, "0")} ok`).join("\n");

  it("cuts shell-like output over 8,000 characters to 3,000 + notice + 3,000 as the history cut does (whole lines), saving nothing", async () => {
    for (const [tool, args] of [
      ["bash", { command: "x" }],
      ["execute_bash", { command: "x" }],
      ["python", "python run.py"],
    ] as const) {
      const view = await seed.view(row(text, tool, args), "s");
      assert.equal(view.firstView, cutHeadTail(text, { keepLimitChars: 8000, keepHeadChars: 3000, keepTailChars: 3000, keepTools: [tool] }).text, tool);
      assert.match(view.firstView, /\n\[loupe: lines [\d,]+–[\d,]+ of 1,000 omitted \([\d,]+ characters\)\]\nrow \d{4} ok\n/);
      assert.equal(view.saved, false);
      assert.equal(view.recover, undefined);
    }
  });

  it("leaves 8,000 characters and non-shell tools whole", async () => {
    const limit = text.slice(0, 8000);
    assert.equal((await seed.view(row(limit, "bash", {}), "s")).firstView, limit);
    assert.equal((await seed.view(row(text, "str_replace_editor view", { command: "view" }), "s")).firstView, text);
  });

  it("matches keep_tools against the raw tool name too", async () => {
    const { rule } = parseRuleSpec("keep_limit_chars=5000,keep_head_chars=1000,keep_tail_chars=500,keep_tools=str_replace_editor view");
    const view = await createCutRulePolicy("r", rule).view(row(text, "str_replace_editor view", { command: "view" }), "s");
    assert.equal(view.firstView, cutHeadTail(text, { ...rule, keepTools: ["str_replace_editor view"] }).text);
    assert.ok(view.firstView.length < 5000);
  });
});

describe("parseRuleSpec()", () => {
  it("reads the four keys, defaulting head, tail and tools to the seed rule", () => {
    assert.deepEqual(parseRuleSpec("keep_limit_chars=8000,keep_head_chars=3000,keep_tail_chars=3000,keep_tools=bash|shell"), {
      name: "rule:8000/3000/3000/bash|shell",
      rule: { keepLimitChars: 8000, keepHeadChars: 3000, keepTailChars: 3000, keepTools: ["bash", "shell"] },
    });
    const { name, rule } = parseRuleSpec("keep_limit_chars=12000");
    assert.equal(name, "rule:12000/3000/3000");
    assert.deepEqual(rule.keepTools, SEED_RULE.keepTools);
  });

  it("refuses unknown keys, missing limits and rules that cut nothing", () => {
    for (const spec of ["keep_limit=8000", "keep_head_chars=10", "keep_limit_chars=abc", "keep_limit_chars=6100"]) {
      assert.throws(
        () => parseRuleSpec(spec),
        (error: unknown) => isAppError(error) && error.code === "invalid_argument",
        spec,
      );
    }
  });
});
