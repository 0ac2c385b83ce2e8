import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { installedPackageDir } from "../testing/installed-file.js";
import { createTokenCounter } from "../token-counter.js";
import { projectSearch } from "./project-search.js";

const counter = createTokenCounter();
const RESULT_ID = "r_0123456789abcdefghijABCDEFGHIJ_-";
const TS_LIB = join(installedPackageDir("typescript"), "lib");

function input(text: string, command: string): ProjectorInput {
  return { text, lines: splitLines(text), toolName: "bash", args: { command }, isError: false, exitCode: 0, timedOut: false, durationMs: 5 };
}

function context(budgetTokens: number, resultId = RESULT_ID): ProjectorContext {
  return { budgetTokens, maxViewBytes: 50_000, counter, resultId, view: "" };
}

function sh(command: string): string {
  return execFileSync("bash", ["-c", command], { maxBuffer: 1 << 30 }).toString("utf8");
}

const fileArbitrary = fc.constantFrom("src/a.ts", "src/b-c.ts", "lib/deep/x.py", "README.md", "a b.txt");
const grepLineArbitrary = fc.oneof(
  fc.tuple(fileArbitrary, fc.nat(9999), fc.string({ maxLength: 60 })).map(([file, line, text]) => `${file}:${String(line)}:${text}`),
  fc.tuple(fileArbitrary, fc.nat(9999), fc.string({ maxLength: 60 })).map(([file, line, text]) => `${file}-${String(line)}-${text}`),
  fc
    .tuple(fc.nat(9999), fc.constantFrom(":", "-"), fc.string({ unit: "grapheme", maxLength: 40 }))
    .map(([line, mark, text]) => `${String(line)}${mark}${text}`),
  fc.constantFrom("--", "", "\r", "Binary file x matches", "src/a.ts", "\u{1F600}:1:astral", "\uFFFD", "z".repeat(2500)),
  fc.string({ maxLength: 50 }),
);
const textArbitrary = fc
  .tuple(fc.array(grepLineArbitrary, { maxLength: 300 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([lines, ending, finalNewline]) => lines.join(ending) + (finalNewline && lines.length > 0 ? ending : ""));

describe("projectSearch()", () => {
  it("keeps the invariants on generated grep output: bounded, whole lines verbatim, omissions recover the rest, deterministic", () => {
    fc.assert(
      fc.property(
        textArbitrary,
        fc.constantFrom("grep -rn x .", "grep -n x src/a.ts -A 3", "rg x"),
        fc.integer({ min: 150, max: 1500 }),
        fc.boolean(),
        (text, command, budget, saved) => {
          const options = context(budget, saved ? RESULT_ID : "");
          const view = projectSearch(input(text, command), options);
          checkLineView(text, view, options);
          assert.deepEqual(projectSearch(input(text, command), options), view);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("shows every file before context, and names files it has no room for", () => {
    const files = Array.from({ length: 30 }, (_, index) => `pkg/module_${String(index)}/file.py`);
    const text = files
      .flatMap((file, index) =>
        Array.from({ length: 20 }, (_, line) => `${file}:${String(line * 7 + index)}:    value = compute_${String(line)}(x)  # long enough comment\n`),
      )
      .join("");
    const view = projectSearch(input(text, "grep -rn compute pkg"), context(2000));
    checkLineView(text, view, context(2000));
    const [counts, missing] = splitLines(view.text);
    assert.match(counts ?? "", /^\[loupe\] 600 matches in 30 files under pkg\/; per file: module_0\/file\.py 20, /);
    assert.match(missing ?? "", /^\[loupe\] no line shown from \d+ files: /);
    for (const file of files) assert.ok(view.text.includes(`${file}:`) || view.text.includes(` ${file.slice("pkg/".length)} 20`), `${file} is named`);
  });
});

describe("projectSearch() on real grep output", () => {
  it("grep -rn over a library: every file the grep matched is named at 2,000 tokens, with its true count", () => {
    const command = `grep -rn "function " ${TS_LIB}`;
    const text = sh(command);
    // Oracles from separate runs of grep, not from the projector's parser.
    const files = sh(`grep -rl "function " ${TS_LIB}`).trim().split("\n");
    const countOf = new Map(
      sh(`grep -rc "function " ${TS_LIB}`)
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.lastIndexOf(":")), Number(line.slice(line.lastIndexOf(":") + 1))]),
    );
    const options = context(2000);
    const view = projectSearch(input(text, command), options);
    checkLineView(text, view, options);
    assert.ok(files.length > 20);
    // Notices name files below their common directory, which the counts line gives once.
    const counts = splitLines(view.text)[0] ?? "";
    const total = [...countOf.values()].reduce((sum, count) => sum + count, 0);
    assert.ok(counts.startsWith(`[loupe] ${total.toLocaleString("en-US")} matches in ${String(files.length)} files under ${TS_LIB}/; per file: `), counts);
    for (const file of files) assert.ok(view.text.includes(file.slice(TS_LIB.length + 1)), `${file} is named`);
    for (const [file, count] of countOf) {
      const name = file.slice(TS_LIB.length + 1);
      if (counts.includes(` ${name} `)) assert.ok(counts.includes(` ${name} ${count.toLocaleString("en-US")}`), `count of ${file}`);
    }
  });

  it("grep -rn over a library: every file is named whatever order grep visits the files in (directory order differs between machines)", () => {
    const command = `grep -rn "function " ${TS_LIB}`;
    const text = sh(command);
    const byFile = new Map<string, string[]>();
    for (const line of splitLines(text).filter((line) => line !== "")) {
      const file = line.slice(0, line.indexOf(":", TS_LIB.length));
      byFile.set(file, [...(byFile.get(file) ?? []), line]);
    }
    assert.ok(byFile.size > 20);
    fc.assert(
      fc.property(fc.shuffledSubarray([...byFile.keys()], { minLength: byFile.size }), (files) => {
        // splitLines keeps each line's newline.
        const shuffled = files.flatMap((file) => byFile.get(file) ?? []).join("");
        const options = context(2000);
        const view = projectSearch(input(shuffled, command), options);
        checkLineView(shuffled, view, options);
        for (const file of files) assert.ok(view.text.includes(file.slice(TS_LIB.length + 1)), `${file} is named`);
      }),
      { numRuns: 25, seed: 20261201 },
    );
  });

  it("grep -rn -C2 with few files: each file's first hit line is kept, context from the head", () => {
    const command = `grep -rn -C2 "Debug.assertNever" ${TS_LIB}`;
    const text = sh(command);
    const files = sh(`grep -rl "Debug.assertNever" ${TS_LIB}`).trim().split("\n");
    const options = context(2000);
    const view = projectSearch(input(text, command), options);
    checkLineView(text, view, options);
    const body = splitLines(view.text).filter((line) => !line.startsWith("[loupe"));
    for (const file of files) {
      const first = sh(`grep -n -m1 "Debug.assertNever" ${file}`).split(":")[0] ?? "";
      assert.ok(
        body.some((line) => line.startsWith(`${file}:${first}:`)),
        `first hit of ${file} (line ${first}) is kept`,
      );
    }
    assert.equal(body[0], splitLines(text)[0], "the head is kept");
  });

  it("a single-file grep -n -A: hits keep their line numbers; the header names the file", () => {
    const file = `${TS_LIB}/typescript.js`;
    const command = `grep -n -A 8 "^function create" ${file}`;
    const text = sh(command);
    const options = context(1000);
    const view = projectSearch(input(text, command), options);
    checkLineView(text, view, options);
    const matches = Number(sh(`grep -c "^function create" ${file}`).trim());
    assert.ok(view.text.startsWith(`[loupe] ${matches.toLocaleString("en-US")} matches in ${file}\n`));
  });
});

describe("projectSearch() on the runtimes' own search tools", () => {
  it("OpenCode's grep: counts every hit under its heading, and the hits keep their line numbers", () => {
    const hits = Array.from({ length: 100 }, (_, index) => index * 10 + 7);
    const text = `Found 100 matches (more matches available)\n/w/big.txt:\n${hits.map((line) => `  Line ${String(line)}: const value_${String(line)} = compute(${String(line)});\n`).join("\n")}\n(Results truncated. Consider using a more specific path or pattern.)`;
    const options = context(600);
    const view = projectSearch({ ...input(text, ""), toolName: "grep", args: { pattern: "x" } }, options);
    checkLineView(text, view, options);
    assert.ok(view.text.startsWith("[loupe] 100 matches in /w/big.txt\n"), view.text.slice(0, 80));
  });
});
