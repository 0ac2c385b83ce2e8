import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { listingGroups } from "./listing-groups.js";
import { subtreeEntries } from "./listing-notices.js";
import { looksLikeListing } from "./looks-like-listing.js";
import { parseListing } from "./parse-listing.js";

/** Per line: the directory path the line stands for ("-" for none), and whether it is an entry. */
function describeLines(text: string): string[] {
  const listing = parseListing(splitLines(text));
  return [...listing.nodeOf].map((node, index) => `${node === -1 ? "-" : (listing.tree.path[node] ?? "?")}${listing.isEntry[index] === 1 ? " entry" : ""}`);
}

describe("parseListing()", () => {
  it("reads find output: a directory line stands for its own subtree", () => {
    const text = ".\n./src\n./src/a.ts\n./src/lib\n./src/lib/b.ts\n./README.md\nfind: './secret': Permission denied\n";
    assert.deepEqual(describeLines(text), [". entry", "./src entry", "./src entry", "./src/lib entry", "./src/lib entry", ". entry", "-"]);
  });

  it("reads ls -R blocks, in short and long format", () => {
    const text = ["src:", "a.ts", "lib", "", "src/lib:", "total 8", "-rw-r--r-- 1 u g 12 Sep 10  2025 b.ts", ""].join("\n");
    assert.deepEqual(describeLines(text), ["src", "src entry", "src entry", "-", "src/lib", "-", "src/lib entry"]);
  });

  it("reads tree output with box-drawing and ASCII branches", () => {
    const text = [".", "├── src", "│   ├── a.ts", "│   └── lib", "│       └── b.ts", "└── README.md", "", "2 directories, 3 files"].join("\n");
    assert.deepEqual(describeLines(text), [".", "./src entry", "./src entry", "./src/lib entry", "./src/lib entry", ". entry", "-", "-"]);
    const ascii = [".", "|-- src", "|   `-- a.ts", "`-- README.md"].join("\n");
    assert.deepEqual(describeLines(ascii), [".", "./src entry", "./src entry", ". entry"]);
  });

  it("counts the entries below each directory", () => {
    const listing = parseListing(splitLines("./a/x\n./a/y\n./a/b/z\n./c\n"));
    const counts = subtreeEntries(listing);
    const of = (path: string): number => counts[listing.tree.find(path) ?? -1] ?? -1;
    assert.deepEqual([of("."), of("./a"), of("./a/b")], [4, 3, 1]);
  });
});

describe("listingGroups()", () => {
  it("cuts a find listing into contiguous subtrees at a depth", () => {
    const listing = parseListing(splitLines(".\n./a\n./a/x\n./a/y\n./b\n./b/z\n./top.txt\n"));
    const runs = (depth: number): string[] => listingGroups(listing, depth).map((group) => `${String(group.start)}-${String(group.end)}`);
    assert.deepEqual(runs(1), ["0-7"]);
    assert.deepEqual(runs(2), ["0-1", "1-4", "4-6", "6-7"]);
  });
});

describe("looksLikeListing()", () => {
  const cases: [string, boolean][] = [
    ["./src/a.ts\n./src/b.ts\n./README.md\n", true],
    ["/abs/path/x.py\n/abs/path/y.py\n", true],
    ["total 8\ndrwxr-xr-x 2 u g 4096 Sep 10  2025 src\n-rw-r--r-- 1 u g 12 Sep 10  2025 a.ts\n", true],
    [".\n├── a\n│   └── b.txt\n└── c.txt\n", true],
    ["src:\na.ts\nb.ts\n\nsrc/lib:\nc.ts\n", true],
    ["src/a.ts:12:const x = 1\nsrc/b.ts:3:y\n", false],
    ['Traceback (most recent call last):\n  File "x.py", line 3\nValueError: no\n', false],
    ["hello world\nthis is prose, not a listing\n", false],
    ["", false],
  ];
  for (const [text, expected] of cases) {
    it(`says ${String(expected)} for ${JSON.stringify(text.slice(0, 40))}`, () => assert.equal(looksLikeListing(splitLines(text)), expected));
  }
});
