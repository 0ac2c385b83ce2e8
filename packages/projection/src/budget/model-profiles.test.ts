import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { effectiveBudget } from "./effective-budget.js";
import { DEFAULT_BUDGET_TOKENS, ESTIMATE_MARGINS, MAX_VIEW_BYTES, modelProfileFor } from "./model-profiles.js";

describe("modelProfileFor()", () => {
  const exact: [string, "o200k_base" | "cl100k_base"][] = [
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini-2024-07-18", "o200k_base"],
    ["openai/gpt-4.1", "o200k_base"],
    ["GPT-4.1-mini", "o200k_base"],
    ["gpt-4.5-preview", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["gpt-5.1-codex", "o200k_base"],
    ["o1-preview", "o200k_base"],
    ["o3", "o200k_base"],
    ["o4-mini", "o200k_base"],
    ["chatgpt-4o-latest", "o200k_base"],
    ["gpt-oss-120b", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-0613", "cl100k_base"],
    ["gpt-4-turbo-2024-04-09", "cl100k_base"],
    ["azure/gpt-35-turbo", "cl100k_base"],
    ["gpt-3.5-turbo", "cl100k_base"],
  ];
  for (const [model, encoding] of exact) {
    it(`${model} → ${encoding}, exact`, () => {
      assert.deepEqual(modelProfileFor(model), { encoding, exact: true, marginRatio: 0, defaultBudgetTokens: DEFAULT_BUDGET_TOKENS });
    });
  }

  const estimated: [string, number][] = [
    ["claude-3-5-sonnet-20241022", ESTIMATE_MARGINS.claude],
    ["claude-3-opus-20240229", ESTIMATE_MARGINS.claude],
    ["claude-sonnet-4-20250514", ESTIMATE_MARGINS.claude],
    ["claude-opus-4-1-20250805", ESTIMATE_MARGINS.claude],
    ["claude-sonnet-4-5", ESTIMATE_MARGINS.claude],
    ["us.anthropic.claude-3-7-sonnet-20250219-v1:0", ESTIMATE_MARGINS.claude],
    ["claude-opus-4-7", ESTIMATE_MARGINS.claudeNewTokenizer],
    ["anthropic/claude-opus-4.7", ESTIMATE_MARGINS.claudeNewTokenizer],
    ["claude-sonnet-5", ESTIMATE_MARGINS.claudeNewTokenizer],
    ["gemini-2.5-pro", ESTIMATE_MARGINS.gemini],
    ["vertex_ai/gemini-1.5-flash", ESTIMATE_MARGINS.gemini],
    ["deepseek/deepseek-chat", ESTIMATE_MARGINS.deepseek],
    ["meta-llama/Llama-3.1-70B-Instruct", ESTIMATE_MARGINS.llama3],
    ["Qwen/Qwen3-Coder-480B-A35B-Instruct", ESTIMATE_MARGINS.qwen],
    ["qwen2.5-coder-32b-instruct", ESTIMATE_MARGINS.qwen],
    ["mistral-large-latest", ESTIMATE_MARGINS.other],
    ["", ESTIMATE_MARGINS.other],
  ];
  for (const [model, marginRatio] of estimated) {
    it(`${JSON.stringify(model)} → o200k_base estimate, margin ${marginRatio}`, () => {
      assert.deepEqual(modelProfileFor(model), { encoding: "o200k_base", exact: false, marginRatio, defaultBudgetTokens: DEFAULT_BUDGET_TOKENS });
    });
  }

  it("takes a configured default budget", () => {
    assert.equal(modelProfileFor("gpt-4o", { defaultBudgetTokens: 4000 }).defaultBudgetTokens, 4000);
  });

  it("keeps the constants the design states", () => {
    assert.equal(MAX_VIEW_BYTES, 51_200);
    assert.equal(DEFAULT_BUDGET_TOKENS, 2000);
  });
});

describe("effectiveBudget()", () => {
  const openai = modelProfileFor("gpt-4o");
  const claude = modelProfileFor("claude-sonnet-4-5");

  it("prefers the request's budget, then the rule's, then the default; 0 means unset", () => {
    assert.deepEqual(effectiveBudget(500, 800, openai), { budgetTokens: 500, projectorBudgetTokens: 500, source: "request" });
    assert.deepEqual(effectiveBudget(0, 800, openai), { budgetTokens: 800, projectorBudgetTokens: 800, source: "rule" });
    assert.deepEqual(effectiveBudget(0, 0, openai), { budgetTokens: 2000, projectorBudgetTokens: 2000, source: "default" });
    assert.deepEqual(effectiveBudget(0, undefined, openai), { budgetTokens: 2000, projectorBudgetTokens: 2000, source: "default" });
  });

  it("reduces an estimated profile's projector budget by its margin", () => {
    assert.deepEqual(effectiveBudget(0, undefined, claude), { budgetTokens: 2000, projectorBudgetTokens: Math.floor(2000 / 1.45), source: "default" });
    assert.equal(effectiveBudget(2200, undefined, { ...openai, exact: false, marginRatio: 0.1 }).projectorBudgetTokens, 2000);
    assert.equal(effectiveBudget(1, undefined, claude).projectorBudgetTokens, 1);
  });

  it("refuses budgets that are not whole numbers ≥ 0", () => {
    for (const [request, rule] of [
      [-1, 0],
      [1.5, 0],
      [0, -3],
      [Number.NaN, 0],
    ] as const) {
      assert.throws(
        () => effectiveBudget(request, rule, openai),
        (error: unknown) => isAppError(error) && error.code === "invalid_argument",
      );
    }
  });
});
