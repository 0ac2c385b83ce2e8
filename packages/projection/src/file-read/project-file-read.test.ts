import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { installedFile } from "../testing/installed-file.js";
import { createTokenCounter } from "../token-counter.js";
import { DECLARATION_MAP_OPENING } from "./declaration-map.js";
import { looksLikeNumberedFile } from "./looks-like-numbered-file.js";
import { projectFileRead } from "./project-file-read.js";

const counter = createTokenCounter();
const RESULT_ID = "r_0123456789abcdefghijABCDEFGHIJ_-";
// A large real file: TypeScript's compiler, from the workspace's own dependencies.
const BIG_FILE = installedFile("typescript/lib/typescript.js");

function input(text: string, toolName: string, args: Record<string, unknown>): ProjectorInput {
  return { text, lines: splitLines(text), toolName, args, isError: false, exitCode: 0, timedOut: false, durationMs: 5 };
}

function context(budgetTokens: number, resultId = RESULT_ID): ProjectorContext {
  return { budgetTokens, maxViewBytes: 50_000, counter, resultId, view: "" };
}

function sh(command: string): string {
  return execFileSync("bash", ["-c", command], { maxBuffer: 1 << 30 }).toString("utf8");
}

const lineArbitrary = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.constantFrom(
    "def handler(event):",
    "    def method(self, x):",
    "class Widget(Base):",
    "export function run(): void {",
    "",
    "\r",
    "x\r",
    "\u{1F600} astral",
    "\uFFFD",
    "y".repeat(2500),
  ),
);
const textArbitrary = fc
  .tuple(fc.array(lineArbitrary, { maxLength: 300 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([lines, ending, finalNewline]) => lines.join(ending) + (finalNewline && lines.length > 0 ? ending : ""));
const callArbitrary = fc.constantFrom<[string, Record<string, unknown>]>(
  ["bash", { command: "cat src/app.py" }],
  ["bash", { command: "cd /testbed && sed -n '1000,1400p' src/app.py" }],
  ["bash", { command: "tail -n 300 src/app.py" }],
  ["Read", { file_path: "src/app.py", offset: 120, limit: 400 }],
  ["str_replace_editor", { command: "view", path: "/w/app.c", view_range: [10, 400] }],
  ["mystery", {}],
);

describe("projectFileRead()", () => {
  it("keeps the invariants on generated reads: bounded, whole lines verbatim, omissions recover the rest, deterministic", () => {
    fc.assert(
      fc.property(textArbitrary, callArbitrary, fc.integer({ min: 150, max: 1500 }), fc.boolean(), (text, [toolName, args], budget, saved) => {
        const options = context(budget, saved ? RESULT_ID : "");
        const view = projectFileRead(input(text, toolName, args), options);
        checkLineView(text, view, { ...options, resultId: options.resultId });
        assert.deepEqual(projectFileRead(input(text, toolName, args), options), view);
      }),
      { numRuns: 150 },
    );
  });

  it("names the file and its line count in the notices of a whole-file read", () => {
    const text = Array.from({ length: 5000 }, (_, index) => (index % 400 === 7 ? `def step_${String(index)}(x):\n` : `    value = ${String(index)}\n`)).join(
      "",
    );
    const view = projectFileRead(input(text, "bash", { command: "cat src/app.py" }), context(2000));
    assert.ok(view.omissions.length > 1, "the outline splits the middle");
    for (const omission of view.omissions)
      assert.match(omission.description, /^\[loupe\] lines? [\d,–]+ of src\/app\.py \(5,000 lines\) omitted; recover with \{"result_id"/);
  });

  it("offers no continuation, only the agent's own read call, when nothing was saved", () => {
    const text = Array.from({ length: 3000 }, (_, index) => `${String(index + 1).padStart(6)}\tline ${String(index + 1)}\n`).join("");
    const view = projectFileRead(input(text, "Read", { file_path: "a.txt" }), context(400, ""));
    assert.ok(view.omissions.length > 0);
    for (const omission of view.omissions) {
      assert.equal(omission.continuationJson, "");
      assert.match(omission.description, /could not be saved; read it again with Read \{"file_path":"a\.txt","offset":\d+,"limit":\d+\}$/);
    }
  });
});

describe("projectFileRead() on real reads of a large file", () => {
  const file = BIG_FILE;
  const fileLines = splitLines(readFileSync(file, "utf8"));

  it("cat -n: verbatim lines, the head, a map of the middle's declarations, notices naming the file", () => {
    const text = sh(`cat -n ${file}`);
    const options = context(2000);
    const view = projectFileRead(input(text, "bash", { command: `cat -n ${file}` }), options);
    checkLineView(text, view, options);
    const shown = splitLines(view.text);
    assert.ok(shown.find((line) => !line.startsWith("[loupe"))?.startsWith("     1\t/*! ****"), "the head is kept");
    // Oracle: top-level function declarations as `cat -n` prints them (not the projector's patterns).
    const map = shown.find((line) => line.startsWith(DECLARATION_MAP_OPENING)) ?? "";
    const entries = [...map.matchAll(/(?:: |, )([\d,]+) ((?:function|class) [\w$]+)/g)].map((match) => ({
      line: Number((match[1] ?? "").replace(/,/g, "")),
      label: match[2] ?? "",
    }));
    const middle = entries.filter(({ line }) => line > 200 && line < fileLines.length - 200);
    assert.ok(middle.length >= 10, `the map names declarations of the middle: ${map.slice(0, 200)}`);
    for (const { line, label } of entries) {
      assert.ok(fileLines[line - 1]?.trimStart().startsWith(label), `line ${String(line)} of the file declares ${label}`);
      assert.ok(!shown.includes(splitLines(text)[line - 1] ?? ""), `line ${String(line)} is named because it is not shown`);
    }
    assert.ok(view.omissions.length >= 1);
    const total = Number(sh(`wc -l < ${file}`).trim());
    for (const omission of view.omissions) assert.ok(omission.description.includes(`of ${file} (${total.toLocaleString("en-US")} lines) omitted`));
  });

  it("sed -n '1000,3000p': notices give the file's own lines, which match the real file", () => {
    const command = `sed -n '1000,3000p' ${file}`;
    const text = sh(command);
    const lines = splitLines(text);
    const options = context(2000);
    const view = projectFileRead(input(text, "bash", { command }), options);
    checkLineView(text, view, options);
    assert.ok(view.omissions.length > 0);
    for (const omission of view.omissions) {
      const match = /\(.* lines? ([\d,]+)(?:–([\d,]+))?\)/.exec(omission.description);
      assert.ok(match, omission.description);
      const from = Number((match[1] ?? "").replace(/,/g, ""));
      const to = Number((match[2] ?? match[1] ?? "").replace(/,/g, ""));
      assert.deepEqual(fileLines.slice(from - 1, to), lines.slice(omission.startLine - 1, omission.endLine));
    }
  });

  it("sed -n '1000,3000p': the map names the omitted declarations by the file's own line numbers", () => {
    const command = `sed -n '1000,3000p' ${file}`;
    const text = sh(command);
    const view = projectFileRead(input(text, "bash", { command }), context(2000));
    const map = splitLines(view.text).find((line) => line.startsWith(DECLARATION_MAP_OPENING)) ?? "";
    assert.ok(map.startsWith(`${DECLARATION_MAP_OPENING}(${file} lines) `), map.slice(0, 120));
    const entries = [...map.matchAll(/(?:\) |, )([\d,]+) ((?:function|class) [\w$]+)/g)];
    assert.ok(entries.length >= 5, map.slice(0, 300));
    for (const [, number, label] of entries) {
      const line = Number((number ?? "").replace(/,/g, ""));
      assert.ok(line >= 1000 && line <= 3000, `line ${String(line)} is within the part read`);
      assert.ok(fileLines[line - 1]?.trimStart().startsWith(label ?? ""), `line ${String(line)} of the file declares ${label ?? ""}`);
    }
  });

  it("Read {file_path, offset, limit}: the notices' Read arguments point at the omitted lines of the file", () => {
    // Claude Code's Read prints `cat -n`-style lines numbered from the offset.
    const text = sh(`cat -n ${file} | sed -n '1000,3000p'`);
    assert.ok(looksLikeNumberedFile(splitLines(text)));
    const lines = splitLines(text);
    const options = context(1000);
    const view = projectFileRead(input(text, "Read", { file_path: "lib/typescript.js", offset: 1000, limit: 2001 }), options);
    checkLineView(text, view, options);
    assert.ok(view.omissions.length > 0);
    for (const omission of view.omissions) {
      const call = /or Read (\{.*\})$/.exec(omission.description);
      assert.ok(call, omission.description);
      const args = JSON.parse(call[1] ?? "") as { file_path: string; offset: number; limit: number };
      assert.equal(args.file_path, "lib/typescript.js");
      const omitted = lines.slice(omission.startLine - 1, omission.endLine).map((line) => line.replace(/^\s*\d+\t/, ""));
      assert.deepEqual(fileLines.slice(args.offset - 1, args.offset - 1 + args.limit), omitted);
    }
  });

  it("OpenHands view with view_range: a header line, then numbered lines; view_range arguments match the file", () => {
    const path = "/workspace/lib/typescript.js";
    const text = `Here's the result of running \`cat -n\` on ${path}:\n` + sh(`cat -n ${file} | sed -n '500,1500p'`);
    const lines = splitLines(text);
    const options = context(800);
    const view = projectFileRead(input(text, "str_replace_editor", { command: "view", path, view_range: [500, 1500] }), options);
    checkLineView(text, view, options);
    for (const omission of view.omissions) {
      const call = /or str_replace_editor (\{.*\})$/.exec(omission.description);
      assert.ok(call, omission.description);
      const args = JSON.parse(call[1] ?? "") as { command: string; path: string; view_range: [number, number] };
      assert.equal(args.command, "view");
      assert.equal(args.path, path);
      const omitted = lines.slice(omission.startLine - 1, omission.endLine).map((line) => line.replace(/^\s*\d+\t/, ""));
      assert.deepEqual(fileLines.slice(args.view_range[0] - 1, args.view_range[1]), omitted);
    }
  });
});
