import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decisionsOf, isDecision, isNextStep, planOfArgs, sentencesOf, textOf } from "./extract-sentences.js";

describe("sentencesOf()", () => {
  it("splits prose into sentences, keeps file names whole, skips code blocks and scraps", () => {
    const text = "I looked at separable.py in detail. The bug is in `_cstack`!\n```python\nx = 1. Not prose at all.\n```\n- Update the docs afterwards\nOk.";
    assert.deepStrictEqual(
      sentencesOf(text).map((sentence) => sentence.text),
      ["I looked at separable.py in detail.", "The bug is in `_cstack`!", "Update the docs afterwards"],
    );
  });

  it("marks the items of a list under a plan heading as plan items", () => {
    const sentences = sentencesOf("Here are the next steps:\n1. Run the full test suite\n2. Update CHANGELOG.md now\n\nThe diff is small and safe.");
    assert.deepStrictEqual(
      sentences.map((sentence) => [sentence.text, sentence.planItem]),
      [
        ["Here are the next steps:", false],
        ["Run the full test suite", true],
        ["Update CHANGELOG.md now", true],
        ["The diff is small and safe.", false],
      ],
    );
  });
});

describe("isDecision()", () => {
  const decisions = [
    "The root cause is a stale cache entry.",
    "I'll switch to a streaming parser because the file is 2 GB.",
    "The problem is that add() subtracts its arguments.",
    "We should use `bytes(arr)` for consistency.",
    "I decided to keep the old API.",
  ];
  const notDecisions = [
    "Let me look at the failing test first.",
    "Now let me verify the fix was applied correctly:",
    "I'll check the test file to understand the expected behaviour.",
    "Should I use the cache here?",
    "The output is long.",
  ];
  for (const sentence of decisions) it(`takes "${sentence}"`, () => assert.equal(isDecision(sentence), true));
  for (const sentence of notDecisions) it(`leaves "${sentence}"`, () => assert.equal(isDecision(sentence), false));

  it("joins a short decision to the sentence it points at", () => {
    const sentences = sentencesOf("It sets every element to 1 instead of copying `right`. This is the bug!");
    assert.deepStrictEqual(decisionsOf(sentences.slice(1)), ["This is the bug!"]);
    assert.ok(decisionsOf(sentences).includes("It sets every element to 1 instead of copying `right`. This is the bug!"));
  });
});

describe("isNextStep()", () => {
  it("takes sentences with next-step cues and plan items", () => {
    assert.equal(isNextStep({ text: "Next I need to rerun the linter.", planItem: false }), true);
    assert.equal(isNextStep({ text: "Then update the changelog.", planItem: false }), true);
    assert.equal(isNextStep({ text: "Run the full test suite", planItem: true }), true);
    assert.equal(isNextStep({ text: "The tests pass.", planItem: false }), false);
    assert.equal(isNextStep({ text: "What should we do next?", planItem: false }), false);
  });
});

describe("planOfArgs()", () => {
  it("keeps the open items of a TodoWrite or update_plan call", () => {
    assert.deepStrictEqual(
      planOfArgs({
        todos: [
          { content: "Fix add()", status: "completed", activeForm: "Fixing" },
          { content: "Update docs", status: "in_progress" },
          { content: "Release", status: "pending" },
        ],
      }),
      ["[in_progress] Update docs", "[pending] Release"],
    );
    assert.deepStrictEqual(planOfArgs({ plan: [{ step: "Write tests", status: "pending" }] }), ["[pending] Write tests"]);
    assert.equal(planOfArgs({ command: "ls" }), undefined);
  });
});

describe("textOf()", () => {
  it("joins text parts and drops runtime reminders", () => {
    assert.equal(
      textOf([
        { type: "text", text: "<system-reminder>be brief</system-reminder>\nFix the bug." },
        { type: "json", json: "{}" },
      ]),
      "Fix the bug.",
    );
  });
});
