import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { looksLikeGrepOutput } from "./looks-like-grep-output.js";
import { GREP_LINE, parseGrepOutput } from "./parse-grep-output.js";
import { searchedFileOf } from "./searched-file-of.js";

const ROLE_NAMES = Object.fromEntries(Object.entries(GREP_LINE).map(([name, value]) => [value, name]));

function roles(text: string, singleFile = ""): { roles: string[]; files: string[]; hits: number[][] } {
  const parsed = parseGrepOutput(splitLines(text), singleFile);
  return { roles: [...parsed.roles].map((role) => ROLE_NAMES[role] ?? "?"), files: parsed.files, hits: parsed.hits };
}

describe("parseGrepOutput()", () => {
  it("reads grep -rn with context and separators", () => {
    const text = [
      "src/a-b.ts-1-import x;",
      "src/a-b.ts:2:const hit = 1;",
      "src/a-b.ts-3-",
      "--",
      "lib/c.py-9-def f():",
      "lib/c.py:10:    hit()",
      "lib/c.py:11:    hit(2)",
    ].join("\n");
    assert.deepEqual(roles(text), {
      roles: ["context", "hit", "context", "separator", "context", "hit", "hit"],
      files: ["src/a-b.ts", "lib/c.py"],
      hits: [[1], [5, 6]],
    });
  });

  it("reads a single-file grep -n, naming the file from the command", () => {
    const text = "12-    before\n13:    hit\n14-    after\n--\n40:    hit again\n";
    assert.deepEqual(roles(text, "x.py"), { roles: ["context", "hit", "context", "separator", "hit"], files: ["x.py"], hits: [[1, 4]] });
  });

  it("reads rg's heading mode", () => {
    const text = "src/a.ts\n3:hit one\n4-context\n\nsrc/b.ts\n9:hit two\n";
    assert.deepEqual(roles(text), { roles: ["heading", "hit", "context", "other", "heading", "hit"], files: ["src/a.ts", "src/b.ts"], hits: [[1], [5]] });
  });

  it("reads grep -r without line numbers when the paths have directories", () => {
    const text = "./django/db/models/query.py:    def union(self):\n./django/db/models/query.py-    pass\n./tests/test_x.py:union\n";
    assert.deepEqual(roles(text), { roles: ["hit", "context", "hit"], files: ["./django/db/models/query.py", "./tests/test_x.py"], hits: [[0], [2]] });
  });

  it('reads OpenCode\'s grep: a heading per file, then "  Line N: text" hits between blank lines', () => {
    const text = "Found 3 matches\n/w/src/a.ts:\n  Line 7: const a = 1;\n\n  Line 17: const b = a;\n\n/w/lib/c.ts:\n  Line 2: a();\n";
    assert.deepEqual(roles(text), {
      roles: ["other", "heading", "hit", "other", "hit", "other", "heading", "hit"],
      files: ["/w/src/a.ts", "/w/lib/c.ts"],
      hits: [[2, 4], [7]],
    });
  });

  it('reads Gemini CLI\'s grep_search: "File: path" headings, "L12: text" hits and "L11- text" context', () => {
    const text = 'Found 2 matches for pattern "x" in path ".":\n---\nFile: big.txt\nL6- before\nL7: x = 1\nL17: y = x\n---\n';
    assert.deepEqual(roles(text), { roles: ["other", "other", "heading", "context", "hit", "hit", "other"], files: ["big.txt"], hits: [[4, 5]] });
  });

  it("treats bare matching lines as hits of one unnamed file", () => {
    assert.deepEqual(roles("  foo = 1\n  bar(foo)\n"), { roles: ["hit", "hit"], files: [""], hits: [[0, 1]] });
  });
});

describe("searchedFileOf()", () => {
  it("names the one file a non-recursive search reads", () => {
    assert.equal(searchedFileOf(`grep -n "def f" src/x.py -A 5`), "src/x.py");
    assert.equal(searchedFileOf(`cd /testbed && grep -B 5 -A 15 "class W" /testbed/a/w.py`), "/testbed/a/w.py");
    assert.equal(searchedFileOf(`grep -n -e foo -e bar x.py`), "x.py");
    assert.equal(searchedFileOf(`cat x.py | grep -n foo`), "x.py");
    assert.equal(searchedFileOf(`grep -rn foo src`), undefined);
    assert.equal(searchedFileOf(`grep -n foo a.py b.py`), undefined);
    assert.equal(searchedFileOf(`ls | grep foo`), undefined);
  });
});

describe("looksLikeGrepOutput()", () => {
  const cases: [string, boolean][] = [
    ["src/a.ts:1:x\nsrc/b.ts:9:y\n", true],
    ["src/a.ts-1-x\nsrc/a.ts:2:y\nsrc/a.ts-3-z\n--\nsrc/b.ts-8-q\nsrc/b.ts:9:y\n", true],
    ["12:    def f():\n40:    def g():\n", true],
    ["12-    a\n13:    def f():\n14-    b\n--\n40:    def g():\n", true],
    // A numbered file view (SWE-agent) is not a grep.
    ["273:    x = 1\n274:    y = 2\n275:    z = 3\n", false],
    ["     1\timport os\n     2\timport sys\n", false],
    ['Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nValueError: boom\n', false],
    ["./src/a.py\n./src/b.py\n", false],
    ["", false],
  ];
  for (const [text, expected] of cases) {
    it(`says ${String(expected)} for ${JSON.stringify(text.slice(0, 40))}`, () => assert.equal(looksLikeGrepOutput(splitLines(text)), expected));
  }
});
