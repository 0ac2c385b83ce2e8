import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { splitLines } from "../split-lines.js";
import { createTokenCounter } from "../token-counter.js";
import { githubCheckRuns, githubIssueList } from "./fixtures/github-issues.js";
import { projectStructuredResult } from "./project-structured-result.js";
import { renderStructuredAsText } from "./render-structured-as-text.js";
import type { StructuredView } from "./structured-omission.js";

const counter = createTokenCounter();
const RESULT_ID = "r_text";
const context = (budgetTokens: number, maxViewBytes = 50_000) => ({ budgetTokens, maxViewBytes, counter, resultId: RESULT_ID, view: "" });

// An independent RFC 6901 resolver (not the one under test).
function resolve(document: unknown, pointer: string): { ok: boolean; value?: unknown } {
  let current = document;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < current.length) current = current[Number(token)] as unknown;
    else if (!Array.isArray(current) && typeof current === "object" && current !== null && Object.hasOwn(current, token))
      current = (current as Record<string, unknown>)[token];
    else return { ok: false };
  }
  return { ok: true, value: current };
}

function checkTextView(original: unknown, view: StructuredView, budgetTokens: number, maxViewBytes: number): void {
  assert.ok(counter.count(view.text) <= budgetTokens, `over budget: ${String(counter.count(view.text))} > ${String(budgetTokens)}`);
  assert.ok(new TextEncoder().encode(view.text).byteLength <= maxViewBytes, "over the byte cap");
  const lines = splitLines(view.text);
  assert.match(lines[0] ?? "", /^\[loupe\] structured result shown as text: /);
  const notices = lines.slice(1).filter((line) => line.startsWith("[loupe"));
  assert.deepEqual(
    notices.map((line) => line.trimEnd()),
    view.omissions.map((omission) => omission.description),
    "one notice line per omission, in order",
  );
  for (const omission of view.omissions) {
    const target = resolve(original, omission.jsonPointer);
    assert.ok(target.ok, `omission pointer resolves: ${omission.jsonPointer}`);
    const expected: Record<string, unknown> = { result_id: RESULT_ID, json_pointer: omission.jsonPointer };
    if (omission.itemStart !== undefined) {
      assert.ok(
        Array.isArray(target.value) && omission.itemEnd !== undefined && omission.itemStart < omission.itemEnd && omission.itemEnd <= target.value.length,
      );
      Object.assign(expected, { item_start: omission.itemStart, item_end: omission.itemEnd });
    }
    assert.deepEqual(JSON.parse(omission.continuationJson), expected);
  }
  // Every item of a root array shows its section header, or a continuation recovers all of it.
  if (Array.isArray(original)) {
    const covers = (index: number): boolean =>
      view.omissions.some(
        (omission) =>
          omission.jsonPointer === `/${String(index)}` ||
          (omission.jsonPointer === "" && (omission.itemStart ?? 0) <= index && index < (omission.itemEnd ?? original.length)),
      );
    for (let index = 0; index < original.length; index++) {
      assert.ok(lines.some((line) => line.startsWith(`## [${String(index)}]`)) || covers(index), `item ${String(index)} is shown or recoverable`);
    }
  }
}

const generatedJson = fc.oneof(
  fc.jsonValue({ depthSize: "medium" }),
  fc.array(
    fc.dictionary(fc.constantFrom("id", "title", "status", "body", "tags", "a/b"), fc.oneof(fc.jsonValue(), fc.constant("p\nq\r\n".repeat(40))), {
      noNullPrototype: true,
    }),
    { maxLength: 60 },
  ),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 40, noNullPrototype: true }),
  fc.string({ unit: "grapheme", maxLength: 4000 }),
);

describe("renderStructuredAsText()", () => {
  it("is bounded, deterministic, and names a resolvable JSON part for every omitted run", () => {
    fc.assert(
      fc.property(generatedJson, fc.integer({ min: 120, max: 800 }), fc.integer({ min: 1000, max: 20_000 }), (value, budget, maxBytes) => {
        const view = renderStructuredAsText(value, context(budget, maxBytes));
        checkTextView(value, view, budget, maxBytes);
        assert.deepEqual(renderStructuredAsText(value, context(budget, maxBytes)), view);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps the head of a long text field as whole lines", () => {
    const content = Array.from({ length: 400 }, (_, index) => `Line ${String(index + 1)} of the report: ${"détail ".repeat(8)}`).join("\n");
    const value = { id: "doc_1", title: "Quarterly report", content };
    const view = renderStructuredAsText(value, context(1000));
    checkTextView(value, view, 1000, 50_000);
    assert.ok(view.text.includes('## id: "doc_1"') && view.text.includes('## title: "Quarterly report"'));
    assert.ok(view.text.includes("  Line 1 of the report: ") && view.text.includes("  Line 10 of the report: "));
    assert.ok(view.omissions.some((omission) => omission.jsonPointer === "/content"));
  });

  it("puts the headers of failed items before other items", () => {
    const runs = githubCheckRuns(300, [150]);
    const view = renderStructuredAsText(runs, context(1500));
    checkTextView(runs, view, 1500, 50_000);
    assert.match(view.text, /- \[150\] id: 4000150 .*conclusion: "failure"/);
    assert.match(view.text, /- \[299\] id: 4000299 /);
  });

  it("renders a 2,000-issue list within budget with the first and last headers", () => {
    const issues = githubIssueList(2000);
    const view = renderStructuredAsText(issues, context(2000));
    checkTextView(issues, view, 2000, 50_000);
    assert.match(view.text, /^## \[0\] .*number: 2000 /m);
    assert.match(view.text, /^## \[1999\] .*number: 1 /m);
  });
});

describe("projectStructuredResult()", () => {
  it("keeps JSON for record lists and the bounded index when text is beside it", () => {
    for (const value of [githubIssueList(2000), githubCheckRuns(500, [3])]) {
      const chosen = projectStructuredResult(value, context(2000), { hasText: false });
      assert.equal(chosen.format, "json");
      JSON.parse(chosen.text);
    }
    const index = projectStructuredResult(githubIssueList(50), context(500), { hasText: true });
    assert.equal(index.format, "json");
    assert.ok(counter.count(index.text) <= 500);
  });

  it("chooses readable text when the JSON view would have to omit long strings whole", () => {
    const content = Array.from({ length: 300 }, (_, index) => `- finding ${String(index)}: the cache key ignores the tenant`).join("\n");
    const chosen = projectStructuredResult({ id: "scan_9", status: "completed", content }, context(800), { hasText: false });
    assert.equal(chosen.format, "text");
    assert.ok(chosen.text.includes("  - finding 0: the cache key ignores the tenant\n"));
  });

  it("returns a value that fits whole unchanged", () => {
    const chosen = projectStructuredResult({ ok: true }, context(100), { hasText: false });
    assert.deepEqual(chosen, { text: '{"ok":true}', omissions: [], unchanged: true, format: "json" });
  });
});
