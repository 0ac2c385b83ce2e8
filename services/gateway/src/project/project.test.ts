import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { createTokenCounter } from "@loupe/projection";
import { ProjectRequestSchema, ToolKind } from "@loupe/proto";
import { projectDepsForTest, spyCounter } from "./project-test-deps.js";
import { project } from "./project.js";

const exact = createTokenCounter("o200k_base");

const depsWith = projectDepsForTest;

// gpt-4o counts in o200k_base exactly, so the original's count is not flagged as an estimate.
function request(text: string, toolName = "bash", argsJson = "") {
  return create(ProjectRequestSchema, {
    sessionId: "s",
    model: "gpt-4o",
    result: { toolName, kind: ToolKind.UNSPECIFIED, argsJson, parts: [{ content: { case: "text", value: text } }] },
  });
}

/** The text parts of an answer, joined. */
function textOf(parts: readonly unknown[] | undefined): string {
  return (parts ?? [])
    .map((part) => (part as { content?: { case?: string; value?: unknown } }).content)
    .map((content) => (content?.case === "text" ? String(content.value) : ""))
    .join("");
}

const buildLog = (lines: number): string =>
  Array.from({ length: lines }, (_, index) =>
    index % 50 === 7
      ? `src/f${String(index)}.ts:3:1 - error TS2322: bad type\n`
      : `[${String(index)}] compiling module src/feature${String(index % 97)}/index.ts ... ok\n`,
  ).join("");

describe("project() usage", () => {
  // A result under 8 KB is counted whole once by the call's caching counter (its count is the original's, and
  // its lines' counts serve the projection); a larger one is checked against the budget first (answered from
  // its lines, stopping at the budget) and when over it counted through the same cache (line by line, never
  // whole: the test has no counting thread). The projection's fit check counts nothing more.
  const cases = [
    { name: "a result that fits", text: "total 2\n-rw-r--r-- 1 root root 0 a\n", counts: 1, wholeChecks: 0 },
    { name: "a projected build log", text: buildLog(400), counts: 0, wholeChecks: 0 },
    // The projector of one long line measures it against its own limits; the fit check still counts nothing.
    { name: "a projected one-line text", text: "word ".repeat(6000), counts: 1, wholeChecks: undefined },
  ];
  for (const { name, text, counts, wholeChecks } of cases) {
    it(`reports exact counts of the original and the view for ${name}, counting the original once`, async () => {
      const { counter, counted, checked } = spyCounter();
      const answer = await project(request(text), "local", depsWith(counter));
      const view = textOf(answer.parts);
      assert.equal(answer.usage?.originalTokens, exact.count(text));
      assert.equal(answer.usage?.projectedTokens, exact.count(view));
      assert.equal(answer.usage?.savedTokens, Math.max(0, exact.count(text) - exact.count(view)));
      assert.equal(answer.usage?.originalTokensEstimated, false);
      assert.equal(counted.filter((counted) => counted === text).length, counts, "the original is counted whole at most once");
      if (wholeChecks !== undefined)
        assert.equal(checked.filter((checked) => checked === text).length, wholeChecks, "the projection's fit check reuses that count");
    });
  }

  it("counts a result over 8 KB and over its budget line by line, reusing the fit check's and the projection's counts", async () => {
    const text = buildLog(400);
    assert.ok(new TextEncoder().encode(text).byteLength > 8 * 1024);
    const { counter, counted, checked } = spyCounter();
    const answer = await project(request(text), "local", depsWith(counter));
    assert.ok(answer.resultId !== "" && (answer.omissions?.length ?? 0) > 0, "cut and saved");
    assert.equal(answer.usage?.originalTokens, exact.count(text));
    const lines = new Set(text.split(/(?<=\n)/));
    const times = new Map<string, number>();
    for (const piece of [...counted, ...checked]) if (lines.has(piece)) times.set(piece, (times.get(piece) ?? 0) + 1);
    assert.equal(times.size, lines.size, "every line counted");
    assert.ok(!counted.includes(text) && !checked.includes(text), "never tokenized whole");
    // Counting the original whole after the fit check would tokenize more than the text again.
    const work = [...counted, ...checked].reduce((sum, piece) => sum + piece.length, 0);
    assert.ok(work < 1.3 * text.length, `tokenized ${String(work)} characters for a text of ${String(text.length)}`);
  });

  it("counts a small result over its budget whole once, and projects it from those counts", async () => {
    const text = buildLog(60);
    assert.ok(new TextEncoder().encode(text).byteLength < 8 * 1024);
    const { counter, counted, checked } = spyCounter();
    const answer = await project(create(ProjectRequestSchema, { ...request(text), budgetTokens: 200 }), "local", depsWith(counter));
    assert.ok(answer.resultId !== "" && (answer.omissions?.length ?? 0) > 0, "cut and saved");
    assert.equal(answer.usage?.originalTokens, exact.count(text));
    // Counted once, line by line (the caching counter splits it where the tokenizer does): no line of it twice.
    const lines = new Set(text.split(/(?<=\n)/));
    const times = new Map<string, number>();
    for (const piece of [...counted, ...checked]) if (lines.has(piece)) times.set(piece, (times.get(piece) ?? 0) + 1);
    assert.ok(times.size > 0, "its lines were counted");
    assert.deepEqual(
      [...times.values()].filter((count) => count > 1),
      [],
      "no line of it counted twice",
    );
    assert.ok(!counted.includes(text) && !checked.includes(text), "never tokenized whole again");
  });

  it("reports exact counts when a changed file's notice makes it project again", async () => {
    const deps = depsWith(exact);
    const args = JSON.stringify({ file_path: "/src/big.ts" });
    const first = Array.from({ length: 900 }, (_, index) => `const value${String(index)} = ${String(index)};\n`).join("");
    const second = first.replace("value7 = 7", "value7 = 8");
    await project(request(first, "Read", args), "local", deps);
    const answer = await project(request(second, "Read", args), "local", deps);
    const view = textOf(answer.parts);
    assert.match(view, /changed since your last read/);
    const notice = textOf(answer.parts?.slice(0, 1));
    assert.equal(answer.usage?.originalTokens, exact.count(second));
    assert.equal(answer.usage?.projectedTokens, exact.count(view.slice(notice.length)));
  });

  it("reports exact counts of the input when saving fails", async () => {
    const text = buildLog(400);
    const answer = await project(
      request(text),
      "local",
      depsWith(exact, () => Promise.reject(new AppError("unavailable", "archive down"))),
    );
    assert.equal(answer.archived, false);
    assert.equal(textOf(answer.parts), text);
    assert.equal(answer.usage?.originalTokens, exact.count(text));
    assert.equal(answer.usage?.projectedTokens, exact.count(text));
  });

  it("estimates originals above 64 KB from the fit check's counts and still counts the view exactly", async () => {
    const text = buildLog(2000);
    assert.ok(Buffer.byteLength(text) > 64 * 1024);
    const { counter, counted } = spyCounter();
    const answer = await project(request(text), "local", depsWith(counter));
    assert.equal(answer.usage?.originalTokensEstimated, true);
    const original = answer.usage?.originalTokens ?? 0;
    assert.ok(Math.abs(original - exact.count(text)) / exact.count(text) < 0.05, `estimate ${String(original)} against ${String(exact.count(text))}`);
    assert.equal(answer.usage?.projectedTokens, exact.count(textOf(answer.parts)));
    assert.ok(!counted.includes(text), "the original is not counted");
  });

  it("estimates the original for a model without its own tokenizer, counting no more of it than the fit check and the view did", async () => {
    const text = buildLog(400);
    const { counter, counted, checked } = spyCounter();
    const unnamed = await project(create(ProjectRequestSchema, { ...request(text), model: "" }), "local", depsWith(counter));
    assert.equal(unnamed.usage?.originalTokensEstimated, true);
    const original = unnamed.usage?.originalTokens ?? 0;
    assert.ok(Math.abs(original - exact.count(text)) / exact.count(text) < 0.05, `estimate ${String(original)} against ${String(exact.count(text))}`);
    const work = [...counted, ...checked].reduce((sum, piece) => sum + piece.length, 0);
    assert.ok(work < 0.8 * text.length, `tokenized ${String(work)} characters of ${String(text.length)}`);
    const named = await project(create(ProjectRequestSchema, { ...request(text), model: "gpt-4o" }), "local", depsWith(exact));
    assert.deepEqual([named.usage?.originalTokens, named.usage?.originalTokensEstimated], [exact.count(text), false]);
  });
});
