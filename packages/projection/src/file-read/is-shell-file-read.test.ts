import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { filePathOf } from "./file-path-of.js";
import { isShellFileRead } from "./is-shell-file-read.js";
import { readToolCall } from "./read-tool-call.js";

describe("isShellFileRead()", () => {
  const cases: [string, { path: string; firstLine: number | undefined; wholeFile: boolean } | undefined][] = [
    ["cat src/app.ts", { path: "src/app.ts", firstLine: 1, wholeFile: true }],
    ["cat -n src/app.ts", { path: "src/app.ts", firstLine: 1, wholeFile: true }],
    ["nl -ba src/app.ts", { path: "src/app.ts", firstLine: 1, wholeFile: true }],
    ["cd /testbed && sed -n '1000,3000p' lib/x.js", { path: "lib/x.js", firstLine: 1000, wholeFile: false }],
    ["sed -n 250,350p lib/x.js", { path: "lib/x.js", firstLine: 250, wholeFile: false }],
    ["sed -n '5p' x.py", { path: "x.py", firstLine: 5, wholeFile: false }],
    ["head -n 200 x.py", { path: "x.py", firstLine: 1, wholeFile: false }],
    ["head -100 x.py", { path: "x.py", firstLine: 1, wholeFile: false }],
    ["tail -n 50 x.py", { path: "x.py", firstLine: undefined, wholeFile: false }],
    ["tail -n +40 x.py", { path: "x.py", firstLine: 40, wholeFile: false }],
    ["tail x.py", { path: "x.py", firstLine: undefined, wholeFile: false }],
    ["cat -n x.py | sed -n '100,200p'", { path: "x.py", firstLine: 100, wholeFile: false }],
    ["nl -ba x.py | sed -n '30,60p' | head -10", { path: "x.py", firstLine: 30, wholeFile: false }],
    ["sed -n '100,200p' x.py | cat -n", { path: "x.py", firstLine: 100, wholeFile: false }],
    ["cat x.py | tail -n 20", { path: "x.py", firstLine: undefined, wholeFile: false }],
    ["cat x.py | grep foo", undefined],
    ["cat a.py b.py", undefined],
    ["sed -i 's/a/b/' x.py", undefined],
    ["sed -n '1,5p;9,10p' x.py", undefined],
    ["head -c 100 x.py", undefined],
    ["python x.py && cat y.py", undefined],
    ["cat > x.py << 'EOF'\nprint(1)\nEOF", undefined],
    ["cat", undefined],
  ];
  for (const [command, expected] of cases) {
    it(`reads ${JSON.stringify(command)}`, () => assert.deepEqual(isShellFileRead(command), expected));
  }
});

describe("filePathOf()", () => {
  it("finds the file of read tools and shell reads, not of searches", () => {
    assert.equal(filePathOf("Read", { file_path: "src/app.ts", offset: 10, limit: 20 }), "src/app.ts");
    assert.equal(filePathOf("str_replace_editor", { command: "view", path: "/w/a.c", view_range: [1, 50] }), "/w/a.c");
    assert.equal(filePathOf("read_file", { path: "notes.md" }), "notes.md");
    assert.equal(filePathOf("bash", { command: "cd /testbed && sed -n '1,80p' django/db/models/query.py" }), "django/db/models/query.py");
    assert.equal(filePathOf("bash", { command: "grep -rn foo src" }), undefined);
    assert.equal(filePathOf("Grep", { pattern: "foo", path: "src" }), undefined);
    assert.equal(filePathOf("Glob", { pattern: "**/*.ts", path: "src" }), undefined);
    assert.equal(filePathOf("bash", {}), undefined);
  });
});

describe("readToolCall()", () => {
  it("writes calls in the agent's own tool shape", () => {
    assert.equal(readToolCall("Read", { file_path: "src/app.ts" }, 1)?.(121, 4480), 'Read {"file_path":"src/app.ts","offset":121,"limit":4360}');
    assert.equal(
      readToolCall("str_replace_editor", { command: "view", path: "/w/a.c", view_range: [1, 50] }, 1)?.(20, 30),
      'str_replace_editor {"command":"view","path":"/w/a.c","view_range":[20,30]}',
    );
    assert.equal(
      readToolCall("read_file", { path: "a.py", start_line: 1, end_line: 9 }, undefined)?.(5, 7),
      'read_file {"path":"a.py","start_line":5,"end_line":7}',
    );
    // An offset the tool counted from 0: its first printed line is offset + 1.
    assert.equal(readToolCall("view", { path: "a.py", offset: 0, limit: 100 }, 1)?.(41, 60), 'view {"path":"a.py","offset":40,"limit":20}');
    assert.equal(readToolCall("view", { path: "a.py", offset: 10, limit: 100 }, 11)?.(41, 60), 'view {"path":"a.py","offset":40,"limit":20}');
    assert.equal(readToolCall("read_file", { path: "a.py" }, 1), undefined);
    assert.equal(readToolCall("bash", { command: "cat a.py" }, 1), undefined);
  });
});
