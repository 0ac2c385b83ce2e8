import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { pnpmStoreOf } from "../testing/installed-file.js";
import { createTokenCounter } from "../token-counter.js";
import { projectListing } from "./project-listing.js";

const counter = createTokenCounter();
const RESULT_ID = "r_0123456789abcdefghijABCDEFGHIJ_-";
// The workspace's own package store, found from this checkout.
const PNPM_STORE = pnpmStoreOf("typescript");

function input(text: string, command: string): ProjectorInput {
  return { text, lines: splitLines(text), toolName: "bash", args: { command }, isError: false, exitCode: 0, timedOut: false, durationMs: 5 };
}

function context(budgetTokens: number, resultId = RESULT_ID): ProjectorContext {
  return { budgetTokens, maxViewBytes: 50_000, counter, resultId, view: "" };
}

function sh(command: string, cwd?: string): string {
  return execFileSync("bash", ["-c", command], { maxBuffer: 1 << 30, ...(cwd === undefined ? {} : { cwd }) }).toString("utf8");
}

/** The header's "dir/ count" items (after "; "). */
function headerCounts(view: string): [string, number][] {
  const header = splitLines(view)[0] ?? "";
  const list = header
    .slice(header.indexOf("; ") + 2)
    .replace(/, … and [\d,]+ more\n?$/, "")
    .replace(/\n$/, "");
  return list.split(", ").map((item) => {
    const space = item.lastIndexOf(" ");
    return [item.slice(0, space), Number(item.slice(space + 1).replace(/,/g, ""))];
  });
}

const segment = fc.constantFrom("src", "lib", "a b", "node_modules", "x", "テスト", "\u{1F600}", "deep");
const pathArbitrary = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => "./" + parts.join("/"));
const lineArbitrary = fc.oneof(
  pathArbitrary,
  pathArbitrary.map((path) => `${path}.py`),
  fc.constantFrom("", "\r", "find: './x': Permission denied", "src:", "├── a.ts", "│   └── b.ts", "total 12", "z".repeat(2500)),
  fc.string({ maxLength: 40 }),
);
const textArbitrary = fc
  .tuple(fc.array(lineArbitrary, { maxLength: 300 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([lines, ending, finalNewline]) => lines.join(ending) + (finalNewline && lines.length > 0 ? ending : ""));

describe("projectListing()", () => {
  it("keeps the invariants on generated listings: bounded, whole lines verbatim, omissions recover the rest, deterministic", () => {
    fc.assert(
      fc.property(textArbitrary, fc.integer({ min: 150, max: 1500 }), fc.boolean(), (text, budget, saved) => {
        const options = context(budget, saved ? RESULT_ID : "");
        const view = projectListing(input(text, "find ."), options);
        checkLineView(text, view, options);
        assert.deepEqual(projectListing(input(text, "find ."), options), view);
      }),
      { numRuns: 150 },
    );
  });

  it("names a line too long to be a directory by its ends, so its notice stays within the budget", () => {
    const text = "z".repeat(2500) + "\n│   └── b.ts";
    for (const saved of [true, false]) {
      const options = context(150, saved ? RESULT_ID : "");
      const view = projectListing(input(text, "find ."), options);
      checkLineView(text, view, options);
      assert.match(view.text, /z{60}…z{59}\//);
    }
  });
});

describe("projectListing() on real listings of a known tree", () => {
  let root = "";
  // Known shape: 3 + 300 + 20 + 50 + 1 files under five directories, two files at the top.
  const shape: [string, number][] = [
    ["alpha", 3],
    ["beta/gamma", 300],
    ["beta/delta", 20],
    ["epsilon/zeta/eta", 50],
    ["epsilon", 1],
  ];
  before(() => {
    root = mkdtempSync(join(tmpdir(), "loupe-listing-"));
    for (const [dir, files] of shape) {
      mkdirSync(join(root, dir), { recursive: true });
      for (let index = 0; index < files; index++) writeFileSync(join(root, dir, `file_${String(index).padStart(3, "0")}.txt`), "");
    }
    writeFileSync(join(root, "README.md"), "");
    writeFileSync(join(root, "setup.py"), "");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const budget of [500, 2000]) {
    it(`find . at ${String(budget)} tokens: whole paths, header counts equal find's, every notice names the subtree it omits`, () => {
      const text = sh("find .", root);
      const options = context(budget);
      const view = projectListing(input(text, "find ."), options);
      checkLineView(text, view, options);
      const items = headerCounts(view.text);
      assert.ok(items.length >= 3, view.text.split("\n")[0]);
      for (const [dir, count] of items) assert.equal(count, Number(sh(`find '${dir}' -mindepth 1 | wc -l`, root).trim()), `count of ${dir}`);
      const lines = splitLines(text);
      for (const omission of view.omissions) {
        const named = /omitted \((?:(.+\/), )?([\d,]+) entr(?:y|ies)\)/.exec(omission.description);
        assert.ok(named, omission.description);
        const omitted = lines.slice(omission.startLine - 1, omission.endLine);
        assert.equal(Number((named[2] ?? "").replace(/,/g, "")), omitted.length);
        const dir = named[1];
        if (dir !== undefined)
          for (const line of omitted) assert.ok(line.startsWith(dir) || line === `${dir.slice(0, -1)}\n`, `${line.trim()} is under ${dir}`);
      }
    });
  }

  it("find . at 2,000 tokens shows an entry of every directory", () => {
    const text = sh("find .", root);
    const view = projectListing(input(text, "find ."), context(2000));
    const body = splitLines(view.text).filter((line) => !line.startsWith("[loupe"));
    for (const dir of sh("find . -type d", root).trim().split("\n")) {
      assert.ok(
        body.some((line) => line.startsWith(`${dir}/`) || line === `${dir}\n`),
        `${dir} is shown`,
      );
    }
  });

  it("ls -R: whole names, header counts equal find's", () => {
    const text = sh("ls -R .", root);
    const options = context(800);
    const view = projectListing(input(text, "ls -R ."), options);
    checkLineView(text, view, options);
    const items = headerCounts(view.text);
    assert.ok(items.length >= 3);
    for (const [dir, count] of items) assert.equal(count, Number(sh(`find '${dir}' -mindepth 1 | wc -l`, root).trim()), `count of ${dir}`);
  });
});

describe("projectListing() on the workspace's package store", () => {
  it("find -maxdepth 4: no path cut, header counts equal find's at the same depth", () => {
    const command = `find ${PNPM_STORE} -maxdepth 4`;
    const text = sh(command);
    const options = context(2000);
    const view = projectListing(input(text, command), options);
    checkLineView(text, view, options);
    for (const [dir, count] of headerCounts(view.text)) {
      const depth = dir
        .slice(PNPM_STORE.length)
        .split("/")
        .filter((part) => part !== "").length;
      assert.equal(count, Number(sh(`find '${dir}' -mindepth 1 -maxdepth ${String(4 - depth)} | wc -l`).trim()), `count of ${dir}`);
    }
  });
});
