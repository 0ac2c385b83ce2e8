import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import fc from "fast-check";
import { countCodePoints } from "./code-points.js";
import { CUT_NOTICE_VERSION, cutHeadTail, cutNotice, DEFAULT_CUT_RULE, isEligible, validateCutRule } from "./head-tail-cut.js";
import type { CutRule } from "./head-tail-cut.js";

const rule = (keepLimitChars: number, keepHeadChars: number, keepTailChars: number, keepTools = ["bash"]): CutRule => ({
  keepLimitChars,
  keepHeadChars,
  keepTailChars,
  keepTools,
});
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NOTICE = /\n\[loupe: (\d{1,3}(?:,\d{3})*) characters omitted\]\n/;

// Texts mixing ASCII, astral characters (surrogate pairs), graphemes, U+FFFD and lone surrogates.
const textArbitrary = fc.oneof(
  fc.string({ unit: "binary", maxLength: 600 }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.array(fc.constantFrom("a", "\u{1F600}", "\uFFFD", "\n", "é", "\u{10FFFF}", "\uD83D", "\uDE00"), { maxLength: 800 }).map((parts) => parts.join("")),
);
const ruleArbitrary = fc
  .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 300 }))
  .map(([head, tail, extra]) => rule(head + tail + 200 + extra, head, tail));

describe("cutNotice()", () => {
  it("is the fixed, versioned notice", () => {
    assert.equal(CUT_NOTICE_VERSION, 4);
    assert.equal(cutNotice(12_345), "\n[loupe: 12,345 characters omitted]\n");
    assert.equal(cutNotice(7), "\n[loupe: 7 characters omitted]\n");
  });
});

describe("validateCutRule()", () => {
  it("accepts the default rule and any rule that is off", () => {
    validateCutRule(DEFAULT_CUT_RULE);
    validateCutRule(rule(0, 50_000, 50_000));
    validateCutRule(rule(6201, 3000, 3000));
  });

  it("refuses a limit that does not exceed head + tail + 200, saying why", () => {
    for (const bad of [rule(6200, 3000, 3000), rule(100, 0, 0), rule(1, 0, 0)]) {
      assert.throws(
        () => validateCutRule(bad),
        (error: unknown) =>
          isAppError(error) &&
          error.code === "invalid_argument" &&
          /^keep_limit_chars must exceed keep_head_chars \+ keep_tail_chars \+ 200/.test(error.message) &&
          error.message.includes(`keep_limit_chars=${bad.keepLimitChars}`),
      );
    }
  });

  it("refuses negative or fractional counts and non-string tools", () => {
    for (const bad of [rule(-1, 0, 0), rule(10_000, 1.5, 0), rule(10_000, 0, Number.NaN), { ...rule(10_000, 0, 0), keepTools: [3] as unknown as string[] }]) {
      assert.throws(
        () => validateCutRule(bad),
        (error: unknown) => isAppError(error) && error.code === "invalid_argument",
      );
    }
  });
});

describe("isEligible()", () => {
  const on = rule(1000, 100, 100, ["bash", "shell", "execute"]);
  it("needs the cut on, a listed tool (any case) and a text longer than the limit", () => {
    const long = "x".repeat(1001);
    assert.equal(isEligible("Bash", long, on), true);
    assert.equal(isEligible("EXECUTE", long, on), true);
    assert.equal(isEligible("execute_bash", long, on), false);
    assert.equal(isEligible("read", long, on), false);
    assert.equal(isEligible("bash", "x".repeat(1000), on), false);
    assert.equal(isEligible("bash", long, { ...on, keepLimitChars: 0 }), false);
    assert.equal(isEligible("Read", long, { ...DEFAULT_CUT_RULE, keepLimitChars: 7000 }), false, "read is not in the default tools");
  });

  it("counts code points, not UTF-16 units", () => {
    assert.equal(isEligible("bash", "\u{1F600}".repeat(1000), on), false);
    assert.equal(isEligible("bash", "\u{1F600}".repeat(1001), on), true);
  });
});

describe("cutHeadTail(), version 1 (results pinned to it before version 2)", () => {
  it("keeps head and tail with the notice between them", () => {
    const text = "H".repeat(100) + "m".repeat(12_345) + "T".repeat(100);
    const result = cutHeadTail(text, rule(1000, 100, 100), 1);
    assert.deepEqual(result, { text: `${"H".repeat(100)}\n[loupe: 12,345 characters omitted]\n${"T".repeat(100)}`, cut: true, removedChars: 12_345 });
  });

  it("leaves text alone when the cut is off or the text is not longer than the limit", () => {
    assert.deepEqual(cutHeadTail("x".repeat(10_000), DEFAULT_CUT_RULE), { text: "x".repeat(10_000), cut: false, removedChars: 0 });
    assert.deepEqual(cutHeadTail("x".repeat(1000), rule(1000, 100, 100)), { text: "x".repeat(1000), cut: false, removedChars: 0 });
  });

  it("throws for an invalid rule", () => {
    assert.throws(
      () => cutHeadTail("x", rule(300, 100, 100)),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
    assert.throws(
      () => cutHeadTail("x", rule(1000, 100, 100), 5),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && error.message.includes("version=5"),
    );
  });

  it("gives the bytes it gave before version 2 existed", () => {
    const text = Array.from({ length: 400 }, (_, index) => `line ${String(index)} of a build log\n`).join("");
    const cut = cutHeadTail(text, rule(8000, 3000, 3000), 1).text;
    assert.equal(cut, text.slice(0, 3000) + cutNotice(text.length - 6000) + text.slice(-3000));
  });

  it("keeps exactly the first and last code points, never splits a pair, and is bounded, deterministic and idempotent", () => {
    fc.assert(
      fc.property(textArbitrary, ruleArbitrary, (text, cutRule) => {
        const result = cutHeadTail(text, cutRule, 1);
        assert.deepEqual(cutHeadTail(text, cutRule, 1), result, "deterministic");
        assert.deepEqual(cutHeadTail(result.text, cutRule, 1), { text: result.text, cut: false, removedChars: 0 }, "idempotent");
        const points = [...text];
        if (points.length <= cutRule.keepLimitChars) {
          assert.deepEqual(result, { text, cut: false, removedChars: 0 }, "identity when not eligible");
          return;
        }
        assert.equal(result.cut, true);
        if (!LONE_SURROGATE.test(text)) assert.ok(!LONE_SURROGATE.test(result.text), "no pair split");
        const head = points.slice(0, cutRule.keepHeadChars).join("");
        const tail = cutRule.keepTailChars === 0 ? "" : points.slice(-cutRule.keepTailChars).join("");
        assert.equal(result.text, head + cutNotice(points.length - cutRule.keepHeadChars - cutRule.keepTailChars) + tail);
        assert.equal(result.removedChars, points.length - cutRule.keepHeadChars - cutRule.keepTailChars);
        assert.equal(Number(NOTICE.exec(result.text.slice(head.length))?.[1]?.replaceAll(",", "")), result.removedChars);
        assert.ok(countCodePoints(result.text) < cutRule.keepLimitChars, "shorter than the limit");
      }),
      { numRuns: 400 },
    );
  });
});
