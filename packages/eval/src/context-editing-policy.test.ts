import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import fc from "fast-check";
import {
  CLEARED_PLACEHOLDER_TOKENS,
  CONTEXT_EDITING_DEFAULTS,
  contextEditingClears,
  createContextEditingPolicy,
  parseContextEditingName,
} from "./context-editing-policy.js";
import { prepareTrajectory } from "./prepare-trajectory.js";
import { joinPolicySettings } from "./join-policy-settings.js";
import { resolvePolicies } from "./resolve-policies.js";
import { historyTokensOf, scoreTrajectory } from "./score-trajectory.js";
import { fixtureRow, fixtureTrajectory, wordCounter } from "./testing/fixture-rows.js";
import { nonePolicy } from "./vendor-policies.js";

const invalid = (message: RegExp) => (error: unknown) => isAppError(error) && error.code === "invalid_argument" && message.test(error.message);

describe("historyTokensOf() with context editing's clearing", () => {
  it("carries every result whole until the history reaches the trigger, then the last `keep` and a placeholder for each other", () => {
    // Steps 1–3 would carry 10, 30 and 60 tokens; from step 2 the history holds 30 ≥ 25 tokens.
    assert.equal(historyTokensOf([10, 20, 30, 40], contextEditingClears(100, 1)), 10 + 30 + 60);
    assert.equal(
      historyTokensOf([10, 20, 30, 40], contextEditingClears(25, 1)),
      10 + (20 + CLEARED_PLACEHOLDER_TOKENS) + (30 + 2 * CLEARED_PLACEHOLDER_TOKENS),
    );
    assert.equal(historyTokensOf([10, 20, 30, 40], contextEditingClears(25, 2)), 10 + 30 + (20 + 30 + CLEARED_PLACEHOLDER_TOKENS));
    assert.equal(historyTokensOf([10, 20, 30, 40], contextEditingClears(25, 0)), 10 + 2 * CLEARED_PLACEHOLDER_TOKENS + 3 * CLEARED_PLACEHOLDER_TOKENS);
    assert.equal(historyTokensOf([], contextEditingClears(25, 3)), 0);
    assert.equal(historyTokensOf([500], contextEditingClears(1, 3)), 0);
  });

  it("equals the uncut history below the trigger, and never carries more when no result is smaller than its placeholder", () => {
    const steps = fc.array(fc.integer({ min: CLEARED_PLACEHOLDER_TOKENS, max: 5_000 }), { maxLength: 60 });
    fc.assert(
      fc.property(steps, fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 10 }), (perStep, trigger, keep) => {
        const uncut = historyTokensOf(perStep);
        const cleared = historyTokensOf(perStep, contextEditingClears(trigger, keep));
        assert.ok(cleared <= uncut, `${String(cleared)} > ${String(uncut)}`);
        if (perStep.slice(0, -1).reduce((sum, tokens) => sum + tokens, 0) < trigger) assert.equal(cleared, uncut);
        // Keeping more never carries less.
        assert.ok(historyTokensOf(perStep, contextEditingClears(trigger, keep + 1)) >= cleared);
      }),
    );
  });
});

describe("parseContextEditingName()", () => {
  it("takes Anthropic's defaults, and trigger and keep in either order", () => {
    assert.deepEqual(parseContextEditingName("context-editing"), { name: "context-editing", ...CONTEXT_EDITING_DEFAULTS });
    assert.deepEqual(parseContextEditingName("context-editing:trigger=20000"), { name: "context-editing:trigger=20000", triggerTokens: 20_000, keep: 3 });
    assert.deepEqual(parseContextEditingName("context-editing:keep=0,trigger=5"), { name: "context-editing:keep=0,trigger=5", triggerTokens: 5, keep: 0 });
  });

  it("refuses a setting it does not know, a bad number, or a setting given twice, naming the policy", () => {
    for (const [name, message] of [
      ["context-editing:trigger=0", /trigger must be a whole number/],
      ["context-editing:trigger=1.5", /trigger must be a whole number/],
      ["context-editing:keep=-1", /keep must be a whole number/],
      ["context-editing:keep=", /keep must be a whole number/],
      ["context-editing:budget=1000", /takes trigger=N and keep=K once each/],
      ["context-editing:keep=1,keep=2", /takes trigger=N and keep=K once each/],
      ["context-editing:trigger", /takes trigger=N and keep=K once each|trigger must be/],
      ["context-editings", /not a context-editing policy/],
    ] as const)
      assert.throws(() => parseContextEditingName(name), invalid(message), name);
  });

  it("is resolved by name, with its settings joined back from a comma-separated --policy", () => {
    const split = "none,context-editing,trigger=20000,keep=2,context-editing:trigger=50000".split(",");
    assert.deepEqual(joinPolicySettings(split), ["none", "context-editing:trigger=20000,keep=2", "context-editing:trigger=50000"]);
    assert.deepEqual(
      resolvePolicies(split, [], undefined).map((policy) => policy.name),
      ["none", "context-editing:trigger=20000,keep=2", "context-editing:trigger=50000"],
    );
    assert.throws(() => resolvePolicies(["blind:context-editing"], [], undefined), invalid(/blind takes a core or loupe policy/));
  });
});

const words = wordCounter;
const row = fixtureRow;

describe("a context-editing policy in scoreTrajectory()", () => {
  const trajectory = fixtureTrajectory("t1", [
    row(1, "load_config ok\nstatus_code 500 seen", "The status_code was 500"), // 5 words
    row(2, "run_tests passed", "run_tests passed, go on"), // 2 words
    row(3, "done here now", "finish"), // 3 words
    row(4, "last", "Back to load_config then"), // load_config: from result 1 only
  ]);
  const prepared = prepareTrajectory(trajectory, words);
  const editing = createContextEditingPolicy(parseContextEditingName("context-editing:trigger=6,keep=1"));

  it("shows every result whole, as none does, and carries the history as it clears it", async () => {
    const none = await scoreTrajectory(prepared, nonePolicy, words);
    const edited = await scoreTrajectory(prepared, editing, words);
    assert.equal(none.historyTokens, 5 + 7 + 10);
    // Step 2: 5 < 6 tokens, whole. Step 3: 7 ≥ 6, the last result (2) and one placeholder. Step 4: 3 and two placeholders.
    assert.equal(edited.historyTokens, 5 + (2 + CLEARED_PLACEHOLDER_TOKENS) + (3 + 2 * CLEARED_PLACEHOLDER_TOKENS));
    assert.deepEqual({ ...edited, historyTokens: 0, earlierInHistory: 0 }, { ...none, historyTokens: 0, earlierInHistory: 0 });
  });

  it("loses what a later step takes from a result it cleared, which none keeps", async () => {
    assert.deepEqual(
      prepared.rows.map((one) => one.earlier.map((item) => [item.text, item.steps])),
      [[], [], [], [["load_config", [0]]]],
    );
    const none = await scoreTrajectory(prepared, nonePolicy, words);
    assert.deepEqual([none.earlierEvidence, none.earlierInHistory], [1, 1]);
    const edited = await scoreTrajectory(prepared, editing, words);
    assert.deepEqual([edited.earlierEvidence, edited.earlierInHistory], [1, 0]);
    const keepAll = await scoreTrajectory(prepared, createContextEditingPolicy(parseContextEditingName("context-editing:trigger=6,keep=4")), words);
    assert.deepEqual([keepAll.earlierEvidence, keepAll.earlierInHistory], [1, 1]);
  });
});
