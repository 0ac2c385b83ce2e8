import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createTokenCounter } from "../token-counter.js";
import { githubCheckRuns, githubIssueList } from "./fixtures/github-issues.js";
import { projectStructured, structuredIndexBudget } from "./project-structured.js";
import { recoverJsonText } from "./recover-json-text.js";
import type { StructuredView } from "./structured-omission.js";

const counter = createTokenCounter();
const RESULT_ID = "r_test";

// An independent RFC 6901 resolver (not the one under test).
function resolve(document: unknown, pointer: string): { ok: true; value: unknown } | { ok: false } {
  if (pointer === "") return { ok: true, value: document };
  if (!pointer.startsWith("/")) return { ok: false };
  let current = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return { ok: false };
      current = current[Number(token)] as unknown;
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else return { ok: false };
  }
  return { ok: true, value: current };
}

const escape = (segment: string): string => segment.replaceAll("~", "~0").replaceAll("/", "~1");
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isMarker = (value: unknown): value is { $loupe: string; recover: Record<string, unknown> | null; type?: string; items?: number; keys?: number } =>
  typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>).$loupe === "string";

/**
 * Checks a JSON view against its original: parses; bounded; every omission
 * resolves and recovers; and walking view and original together, every part
 * of the original is either in the view verbatim at its place or under a
 * marker whose continuation names exactly that place.
 */
function checkView(original: unknown, view: StructuredView, budgetTokens: number, maxViewBytes: number): void {
  assert.ok(counter.count(view.text) <= budgetTokens, `over budget: ${String(counter.count(view.text))} > ${String(budgetTokens)}`);
  assert.ok(new TextEncoder().encode(view.text).byteLength <= maxViewBytes, "over the byte cap");
  const parsed = JSON.parse(view.text) as unknown;
  if (view.unchanged) {
    assert.equal(view.text, JSON.stringify(original));
    return;
  }
  const named = new Set<string>();
  for (const omission of view.omissions) {
    const target = resolve(original, omission.jsonPointer);
    assert.ok(target.ok, `omission pointer does not resolve: ${omission.jsonPointer}`);
    const expected: Record<string, unknown> = { result_id: RESULT_ID, json_pointer: omission.jsonPointer };
    if (omission.itemStart !== undefined || omission.itemEnd !== undefined) {
      assert.ok(Array.isArray(target.value));
      assert.ok(
        omission.itemStart !== undefined &&
          omission.itemEnd !== undefined &&
          0 <= omission.itemStart &&
          omission.itemStart < omission.itemEnd &&
          omission.itemEnd <= target.value.length,
      );
      expected.item_start = omission.itemStart;
      expected.item_end = omission.itemEnd;
    }
    assert.deepEqual(JSON.parse(omission.continuationJson), expected);
    assert.ok(omission.description.startsWith("[loupe]") && !omission.description.includes("\n"));
    named.add(omission.continuationJson);
  }
  const recoverOf = (marker: { recover: Record<string, unknown> | null }): string => {
    assert.ok(marker.recover !== null);
    const json = JSON.stringify(marker.recover);
    assert.ok(named.has(json), `marker without an omission: ${json}`);
    return json;
  };
  const walk = (shown: unknown, value: unknown, pointer: string): void => {
    if (isMarker(shown)) {
      assert.ok(shown.type !== undefined, `a whole-value marker names its type at ${pointer}`);
      assert.deepEqual(JSON.parse(recoverOf(shown)), { result_id: RESULT_ID, json_pointer: pointer });
      return;
    }
    if (typeof value !== "object" || value === null || typeof shown !== "object" || shown === null) {
      assert.equal(JSON.stringify(shown), JSON.stringify(value), `verbatim at ${pointer}`);
      return;
    }
    if (Array.isArray(value)) {
      assert.ok(Array.isArray(shown), `array at ${pointer}`);
      let index = 0;
      for (const element of shown) {
        if (isMarker(element) && element.type === undefined) {
          const recover = JSON.parse(recoverOf(element)) as Record<string, unknown>;
          assert.deepEqual(recover, { result_id: RESULT_ID, json_pointer: pointer, item_start: index, item_end: recover.item_end });
          assert.ok(typeof recover.item_end === "number" && recover.item_end > index);
          index = recover.item_end;
        } else walk(element, value[index++], `${pointer}/${String(index - 1)}`);
      }
      assert.equal(index, value.length, `every item of ${pointer} is shown or in a run`);
      return;
    }
    const record = value as Record<string, unknown>;
    const shownRecord = shown as Record<string, unknown>;
    for (const key of Object.keys(shownRecord)) {
      if (key === "$loupe") continue;
      assert.ok(Object.hasOwn(record, key), `shown key ${key} exists at ${pointer}`);
      walk(shownRecord[key], record[key], `${pointer}/${escape(key)}`);
    }
    const missing = Object.keys(record).filter((key) => !Object.hasOwn(shownRecord, key));
    if (missing.length > 0) {
      const trailer = shownRecord.$loupe;
      assert.ok(isMarker(trailer) && trailer.keys === missing.length, `hidden keys of ${pointer} are counted`);
      assert.deepEqual(JSON.parse(recoverOf(trailer)), { result_id: RESULT_ID, json_pointer: pointer });
    }
  };
  walk(parsed, original, "");
  // Recovering each omission gives back exactly the part it names.
  for (const omission of view.omissions.slice(0, 20)) {
    const text = recoverJsonText(original, omission);
    const target = resolve(original, omission.jsonPointer);
    assert.ok(target.ok);
    const part = omission.itemStart === undefined ? target.value : (target.value as unknown[]).slice(omission.itemStart, omission.itemEnd);
    if (typeof part === "string") assert.equal(text, part);
    else assert.equal(JSON.stringify(JSON.parse(text)), JSON.stringify(part));
  }
}

const keyArbitrary = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 8 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("id", "name", "status", "error", "conclusion", "is_error", "body", "a/b", "~0~1", "", "__proto__", "$loupe", "😀", "items"),
  },
);
const leafArbitrary = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 10 }),
  fc.constantFrom("failure", "x".repeat(500), "line 1\nline 2\r\n\uFFFD \u{1F600}".repeat(30), "[loupe: not a marker]"),
);
const { value: jsonArbitrary } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafArbitrary,
    fc.array(tie("value"), { maxLength: 40 }),
    fc.dictionary(keyArbitrary, tie("value"), { maxKeys: 12, noNullPrototype: true }),
  ),
}));

const generatedJson = fc.oneof(
  fc.jsonValue({ depthSize: "medium" }),
  fc.array(fc.jsonValue(), { maxLength: 80 }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 40, noNullPrototype: true }),
);

function project(value: unknown, budgetTokens: number, maxViewBytes = 50_000, mode: "full" | "index" = "full"): StructuredView {
  return projectStructured(value, { budgetTokens, maxViewBytes, counter, resultId: RESULT_ID, view: "" }, { mode });
}

describe("projectStructured()", () => {
  it("returns a value whose compact JSON fits unchanged", () => {
    const view = project({ a: [1, 2, { b: "c" }] }, 100);
    assert.deepEqual(view, { text: '{"a":[1,2,{"b":"c"}]}', omissions: [], unchanged: true });
  });

  it("is valid JSON, bounded, deterministic and covers the original (fc.jsonValue)", () => {
    let cut = 0;
    fc.assert(
      fc.property(generatedJson, fc.integer({ min: 64, max: 400 }), fc.integer({ min: 400, max: 20_000 }), (value, budget, maxBytes) => {
        const view = project(value, budget, maxBytes);
        checkView(value, view, budget, maxBytes);
        assert.deepEqual(project(value, budget, maxBytes), view);
        if (!view.unchanged) cut++;
      }),
      { numRuns: 300 },
    );
    assert.ok(cut >= 100, `enough generated values are cut (${String(cut)})`);
  });

  it("covers values with awkward keys, long and multi-line strings, lone surrogates and $loupe members", () => {
    let cut = 0;
    fc.assert(
      fc.property(jsonArbitrary, fc.integer({ min: 64, max: 400 }), fc.constantFrom("full" as const, "index" as const), (value, budget, mode) => {
        const view = project(value, budget, 50_000, mode);
        checkView(value, view, budget, 50_000);
        assert.deepEqual(project(value, budget, 50_000, mode), view);
        if (!view.unchanged) cut++;
      }),
      { numRuns: 300 },
    );
    assert.ok(cut >= 100, `enough generated values are cut (${String(cut)})`);
  });

  it("shows a data object with a $loupe member only as a marker", () => {
    const value = {
      items: Array.from({ length: 50 }, (_, index) => ({ id: index, note: "n".repeat(40) })),
      odd: { $loupe: "omitted", id: 7, more: "x".repeat(300) },
    };
    const view = project(value, 400);
    checkView(value, view, 400, 50_000);
    const parsed = JSON.parse(view.text) as Record<string, unknown>;
    assert.deepEqual(parsed.odd, { $loupe: "omitted", type: "object", keys: 3, recover: { result_id: RESULT_ID, json_pointer: "/odd" } });
  });

  it("keeps the first, last and identity of many items of a 2,000-issue list within 2,000 tokens", () => {
    const issues = githubIssueList(2000);
    const started = performance.now();
    const view = project(issues, 2000);
    const elapsedMs = performance.now() - started;
    checkView(issues, view, 2000, 50_000);
    const shown = JSON.parse(view.text) as Array<Record<string, unknown>>;
    const numbers = shown.filter((item) => !("$loupe" in item && typeof item.$loupe === "string")).map((item) => item.number);
    assert.equal(numbers[0], 2000, "the first issue");
    assert.equal(numbers.at(-1), 1, "the last issue");
    assert.ok(numbers.length >= 8, `identities of many issues (${String(numbers.length)})`);
    for (const item of shown.filter((entry) => typeof entry.number === "number")) {
      for (const key of ["id", "number", "title", "state", "url"]) assert.ok(key in item, `issue ${String(item.number)} keeps ${key}`);
    }
    assert.ok(
      view.omissions.some((omission) => omission.jsonPointer === "" && omission.itemStart !== undefined),
      "the omitted run of issues is named",
    );
    assert.ok(elapsedMs < 2000, `took ${String(elapsedMs)} ms`);
  });

  it("fills its budget with items when a list is larger than it", () => {
    const issues = Array.from({ length: 80 }, (_, index) => ({
      id: `issue_${String(index)}`,
      title: `Crash when parsing config number ${String(index)}`,
      state: index % 7 === 0 ? "open" : "closed",
      labels: ["bug", `p${String(index % 3)}`],
      comments: index * 3,
    }));
    const value = { total: 80, items: issues };
    for (const budgetTokens of [400, 800, 1600]) {
      const view = project(value, budgetTokens);
      checkView(value, view, budgetTokens, 50_000);
      const used = counter.count(view.text);
      // The first selection's estimate (a sum of fragment counts) overshoots about twice: it used half the budget.
      assert.ok(used >= budgetTokens * 0.9, `${String(used)} of ${String(budgetTokens)} tokens used`);
    }
  });

  it("shows the items that report failures, wherever they sit", () => {
    const runs = githubCheckRuns(500, [17, 230]);
    const view = project(runs, 1000);
    checkView(runs, view, 1000, 50_000);
    const shown = JSON.parse(view.text) as { check_runs: Array<Record<string, unknown>> };
    const failed = shown.check_runs.filter((run) => run.conclusion === "failure").map((run) => run.id);
    assert.deepEqual(failed, [4_000_017, 4_000_230]);
  });

  it("keeps only the bounded index in index mode", () => {
    const issues = githubIssueList(300);
    const budget = structuredIndexBudget(2000);
    const view = project(issues, budget, 50_000, "index");
    checkView(issues, view, budget, 50_000);
    const shown = JSON.parse(view.text) as Array<Record<string, unknown>>;
    const items = shown.filter((item) => typeof item.number === "number").map((item) => item.number);
    assert.deepEqual(items, [300, 1], "first and last items only");
    assert.equal(budget, 500);
  });

  it("handles values nested 50 deep", () => {
    let objects: Json = { leaf: "x".repeat(3000), id: "deep" };
    let arrays: Json = ["bottom", "y".repeat(400)];
    for (let depth = 0; depth < 50; depth++) {
      objects = { id: depth, child: objects, note: "n" };
      arrays = [depth, arrays];
    }
    for (const [value, budget] of [
      [objects, 300],
      [arrays, 300],
      [objects, 3000],
      [{ objects, arrays }, 900],
    ] as const) {
      const view = project(value, budget);
      checkView(value, view, budget, 50_000);
    }
  });

  it("replaces huge strings whole with a marker that counts code points", () => {
    const body = "😀".repeat(500_000) + "é".repeat(12_345);
    const value = { id: "r1", title: "big", body };
    const started = performance.now();
    const view = project(value, 200);
    assert.ok(performance.now() - started < 1000);
    checkView(value, view, 200, 50_000);
    const parsed = JSON.parse(view.text) as Record<string, unknown>;
    assert.deepEqual(parsed.body, { $loupe: "omitted", type: "string", chars: 512_345, recover: { result_id: RESULT_ID, json_pointer: "/body" } });
    assert.equal(parsed.id, "r1");
    const root = project("x".repeat(100_000), 100);
    checkView("x".repeat(100_000), root, 100, 50_000);
  });

  it("offers no continuation when nothing was saved", () => {
    const view = projectStructured(githubIssueList(50), { budgetTokens: 500, maxViewBytes: 50_000, counter, resultId: "", view: "" });
    assert.ok(view.omissions.length > 0);
    for (const omission of view.omissions) {
      assert.equal(omission.continuationJson, "");
      assert.match(omission.description, /could not be saved/);
    }
    assert.ok(view.text.includes('"recover":null'));
  });
});
