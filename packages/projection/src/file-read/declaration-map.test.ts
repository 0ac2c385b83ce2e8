import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_SHARES } from "../projectors/projection-shares.js";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { createTokenCounter } from "../token-counter.js";
import { DECLARATION_MAP_OPENING, declarationLabel, declarationMapNotice, declarationsOf } from "./declaration-map.js";
import { projectFileRead } from "./project-file-read.js";

const counter = createTokenCounter();
const RESULT_ID = "r_0123456789abcdefghijABCDEFGHIJ_-";

describe("declarationLabel()", () => {
  it("keeps a declaration up to its parameters, bases, type parameters, value or body", () => {
    assert.equal(declarationLabel("def iter_modules_and_files(modules, extra_files):\n", false), "def iter_modules_and_files");
    assert.equal(declarationLabel("class BaseReloader:\n", false), "class BaseReloader");
    assert.equal(declarationLabel("    class Meta(Base):\n", false), "class Meta");
    assert.equal(declarationLabel("export async function project<T>(input: T): void {\n", false), "export async function project");
    assert.equal(declarationLabel("export const limit = 5;\n", false), "export const limit");
    assert.equal(declarationLabel("   264\tclass BaseReloader:\n", true), "class BaseReloader");
    assert.equal(declarationLabel("## Usage: the CLI (beta)\n", false), "## Usage: the CLI (beta)");
    const long = declarationLabel(`def ${"x".repeat(100)}():\n`, false);
    assert.equal(long.length, 60);
    assert.ok(long.endsWith("…"));
  });
});

describe("declarationMapNotice()", () => {
  const lines = splitLines(
    [
      "import os",
      "class Loader:",
      "    def load(self):",
      "        return 1",
      "def helper():",
      "    pass",
      "class Saver:",
      "    def save(self):",
      "        return 2",
    ].join("\n"),
  );
  const declarations = declarationsOf(lines, "app.py", false);

  it("names only the declarations the view leaves out, in line order, with the output's line numbers", () => {
    assert.deepEqual(
      declarations.map(({ index, level, label }) => [index, level, label]),
      [
        [1, 0, "class Loader"],
        [2, 4, "def load"],
        [4, 0, "def helper"],
        [6, 0, "class Saver"],
        [7, 4, "def save"],
      ],
    );
    const kept = new Uint8Array(lines.length);
    kept[0] = kept[1] = kept[2] = 1;
    assert.equal(
      declarationMapNotice(declarations, kept, 200, counter),
      `${DECLARATION_MAP_OPENING}5 def helper, 7 class Saver, 8 def save; recover a range as below`,
    );
    assert.equal(declarationMapNotice(declarations, new Uint8Array(lines.length).fill(1), 200, counter), "", "nothing omitted");
  });

  it("keeps the outermost within its tokens and counts the rest", () => {
    const none = new Uint8Array(lines.length);
    let partial = 0;
    for (let maxTokens = 0; maxTokens <= 60; maxTokens++) {
      const notice = declarationMapNotice(declarations, none, maxTokens, counter);
      if (notice === "") continue;
      assert.ok(counter.count(notice) <= maxTokens, `${notice} within ${String(maxTokens)}`);
      const named = [...notice.matchAll(/(?:: |, )(\d+) /g)].map((match) => Number(match[1]) - 1);
      assert.deepEqual(
        named,
        [...named].sort((a, b) => a - b),
        "in line order",
      );
      const outer = declarations.filter(({ level }) => level === 0).map(({ index }) => index);
      if (named.some((index) => !outer.includes(index)))
        assert.ok(
          outer.every((index) => named.includes(index)),
          "methods only after every class and function",
        );
      const more = Number(/… \((\d+) more\)/.exec(notice)?.[1] ?? 0);
      assert.equal(named.length + more, declarations.length);
      if (more > 0) partial++;
    }
    assert.ok(partial > 0, "some budgets name only part of them");
    assert.equal(declarationMapNotice(declarations, none, 5, counter), "", "not even one entry fits");
  });
});

describe("projectFileRead() with a map of omitted declarations", () => {
  // 120 functions of 15 lines: far more than a 1,000-token view shows.
  const text = Array.from({ length: 120 }, (_, block) =>
    [
      `def handler_${String(block)}(event, context):`,
      ...Array.from({ length: 14 }, (_, line) => `    value_${String(line)} = compute(event, ${String(block * 14 + line)})`),
    ].join("\n"),
  ).join("\n");
  const input = {
    text,
    lines: splitLines(text),
    toolName: "bash",
    args: { command: "cat app.py" },
    isError: false,
    exitCode: 0,
    timedOut: false,
    durationMs: 1,
  };
  const context = { budgetTokens: 1000, maxViewBytes: 50_000, counter, resultId: RESULT_ID, view: "" };

  it("names omitted functions with lines a range continuation reaches, within the budget and its share", () => {
    const view = projectFileRead(input, context);
    // Bounded, whole lines, and the view plus its omissions rebuild the output: the map is one more header notice.
    checkLineView(text, view, context);
    const map = view.text.split("\n").find((line) => line.startsWith(DECLARATION_MAP_OPENING)) ?? "";
    assert.ok(
      counter.count(map) <= context.budgetTokens * DEFAULT_SHARES.fileRead.map,
      `at most its share (${String(DEFAULT_SHARES.fileRead.map)}) of the budget`,
    );
    const entries = [...map.matchAll(/(\d[\d,]*) def (handler_\d+)/g)];
    assert.ok(entries.length >= 20, map);
    // Line numbers are addresses, written as a gutter, sed and the continuations write them: plain digits.
    assert.ok(entries.some(([, number]) => Number(number) >= 1000) && entries.every(([, number]) => /^\d+$/.test(number ?? "")), map);
    assert.match(map, /… \(\d+ more\)/, "more are omitted than the share names");
    for (const [, number, name] of entries) {
      const line = Number((number ?? "").replace(/,/g, ""));
      assert.ok(input.lines[line - 1]?.startsWith(`def ${name ?? ""}(`), `line ${String(line)} declares ${name ?? ""}`);
      assert.ok(!view.text.includes(`def ${name ?? ""}(`), `${name ?? ""} is named because its line is not shown`);
      const omission = view.omissions.find(({ startLine, endLine }) => startLine <= line && line <= endLine);
      assert.ok(omission, `a continuation reaches line ${String(line)}`);
    }
  });

  it("takes the smaller intentMap share when the intent's lines are in the view, which reach into the middle themselves", () => {
    const mapOf = (text: string): string => text.split("\n").find((line) => line.startsWith(DECLARATION_MAP_OPENING)) ?? "";
    const alone = mapOf(projectFileRead(input, context).text);
    const guided = projectFileRead(input, { ...context, intent: "Why does handler_40 compute value_3 twice?" });
    checkLineView(text, guided, context);
    assert.ok(guided.text.includes("def handler_40("), "the intent's window is in the view");
    const map = mapOf(guided.text);
    assert.ok(counter.count(map) <= context.budgetTokens * DEFAULT_SHARES.fileRead.intentMap, map);
    assert.ok(DEFAULT_SHARES.fileRead.intentMap < DEFAULT_SHARES.fileRead.map && counter.count(map) < counter.count(alone), `${map}\n${alone}`);
  });

  it("is left out with a zero share, and a view is the same bytes every time", () => {
    const off = projectFileRead(input, { ...context, shares: { fileRead: { map: 0 } } });
    assert.ok(!off.text.includes(DECLARATION_MAP_OPENING));
    assert.equal(projectFileRead(input, context).text, projectFileRead(input, context).text);
  });
});

describe("a map ranked by the intent", () => {
  // 120 functions of 15 lines; three of them, far apart, use the name the agent asked about in their bodies.
  const users = [23, 77, 101];
  const text = Array.from({ length: 120 }, (_, block) =>
    [
      `def handler_${String(block)}(event, context):`,
      ...Array.from({ length: 14 }, (_, line) =>
        line === 9 && users.includes(block) ? "    refund_ledger.post(event)" : `    value_${String(line)} = compute(event, ${String(block * 14 + line)})`,
      ),
    ].join("\n"),
  ).join("\n");
  const lines = splitLines(text);
  const input = { text, lines, toolName: "bash", args: { command: "cat app.py" }, isError: false, exitCode: 0, timedOut: false, durationMs: 1 };
  const context = { budgetTokens: 1000, maxViewBytes: 50_000, counter, resultId: RESULT_ID, view: "", intent: "Why does the refund_ledger post twice?" };
  const mapOf = (viewText: string): string => viewText.split("\n").find((line) => line.startsWith(DECLARATION_MAP_OPENING)) ?? "";

  it("names first the declarations whose bodies the intent points into, the same bytes every time", () => {
    const view = projectFileRead(input, context);
    checkLineView(text, view, context);
    assert.equal(projectFileRead(input, context).text, view.text);
    const map = mapOf(view.text);
    assert.match(map, /… \(\d+ more\)/, "more are omitted than the map names");
    for (const block of users) {
      const line = block * 15 + 1;
      assert.ok(view.text.includes("refund_ledger.post"), "the intent's lines are shown");
      if (view.text.includes(`def handler_${String(block)}(`)) continue;
      assert.ok(
        map.includes(`${String(line)} def handler_${String(block)},`) || map.includes(`${String(line)} def handler_${String(block)} `),
        `${map} names handler_${String(block)}`,
      );
    }
    // Spread over the file alone, the same room would not have named them all.
    const kept = new Uint8Array(lines.length);
    for (const [index, line] of lines.entries()) if (view.text.includes(line)) kept[index] = 1;
    const spread = declarationMapNotice(declarationsOf(lines, "app.py", false), kept, counter.count(map), counter);
    assert.ok(
      users.some((block) => !spread.includes(`def handler_${String(block)}`) && !view.text.includes(`def handler_${String(block)}(`)),
      spread,
    );
  });

  it("names the pointed-at declarations before the others, still in line order and within its tokens", () => {
    const declarations = declarationsOf(lines, "app.py", false);
    const first = [declarations[101], declarations[7]].filter((found) => found !== undefined);
    const notice = declarationMapNotice(declarations, new Uint8Array(lines.length), 33, counter, undefined, first);
    assert.ok(counter.count(notice) <= 33, notice);
    assert.match(notice, /^\[loupe\] omitted lines declare: 106 def handler_7, 1516 def handler_101 … \(118 more\)/);
    const kept = new Uint8Array(lines.length);
    kept[declarations[101]?.index ?? 0] = 1;
    assert.ok(!declarationMapNotice(declarations, kept, 33, counter, undefined, first).includes("handler_101"), "a shown declaration is never named");
  });
});
