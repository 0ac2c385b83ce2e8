import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ResultKind } from "../projectors/projector.js";
import { contentKind } from "./content-kind.js";
import { commandOf, inferKind } from "./infer-kind.js";
import type { InferKindInput } from "./infer-kind.js";
import { normalizeToolName } from "./tool-name-kind.js";

const KINDS: readonly ResultKind[] = ["file_read", "directory_list", "command", "search", "conversation", "mcp", "edit", "structured", "generic"];
const call = (toolName: string, args: Record<string, unknown> = {}, text = ""): InferKindInput => ({ toolName, args, text });

const BY_NAME: [InferKindInput, ResultKind][] = [
  [call("Read", { file_path: "/a/b.ts" }), "file_read"],
  [call("read_file", { path: "b.ts" }), "file_read"],
  [call("view", { path: "b.ts" }), "file_read"],
  [call("str_replace_editor", { command: "view", path: "/w/b.py" }), "file_read"],
  [call("str_replace_editor view", { command: "view", path: "/w/b.py" }), "file_read"],
  [
    call("str_replace_editor", { command: "view", path: "/workspace" }, "Here's the files and directories up to 2 levels deep in /workspace\n/workspace/a.py"),
    "directory_list",
  ],
  [call("str_replace_based_edit_tool", { command: "str_replace", path: "/w/b.py" }), "edit"],
  [call("str_replace_editor create", { command: "create", path: "/w/b.py" }), "edit"],
  [call("Glob", { pattern: "**/*.ts" }), "directory_list"],
  [call("LS", { path: "/a" }), "directory_list"],
  [call("list_dir", { relative_workspace_path: "." }), "directory_list"],
  [call("Grep", { pattern: "foo" }), "search"],
  [call("Grep", { pattern: "foo" }, "src/a.ts\nsrc/lib/b.ts\ntest/c.test.ts\n"), "directory_list"],
  [call("Grep", { pattern: "foo", output_mode: "content" }, "src/a.ts:3:foo()\nsrc/lib/b.ts:9:foo\ntest/c.ts:1:x\n"), "search"],
  [call("grep", { pattern: "foo" }, "Found 3 files\n/w/a.py\n/w/b.py\n/w/c.py\n"), "directory_list"],
  [call("grep", { pattern: "foo" }, "Found 2 matches\n/w/a.py:\n  Line 3: foo()\n/w/b.py:\n  Line 9: foo\n"), "search"],
  [call("bash", { command: "grep -rl foo src" }, "src/a.py\nsrc/b.py\nsrc/sub/c.py\n"), "directory_list"],
  [call("bash", { command: "grep foo setup.cfg" }, "foo = 1\nfoo.bar = 2\n  foo\n"), "search"],
  [call("bash", { command: "grep -h import a.py" }, "import os\nimport sys\nfrom x import y\n"), "search"],
  [call("search", { query: "foo" }), "search"],
  [call("Edit"), "edit"],
  [call("Write"), "edit"],
  [call("MultiEdit"), "edit"],
  [call("str_replace"), "edit"],
  [call("apply_patch"), "edit"],
  [call("TodoWrite"), "edit"],
  [call("mcp__github__list_issues", { command: "ls" }, "[]"), "mcp"],
  [call("mcp_fetch"), "mcp"],
  [call("read_history"), "conversation"],
  [call("search_conversation"), "conversation"],
  [call("submit"), "command"],
  // Shells: the command decides.
  [call("Bash", { command: "ls -la" }), "directory_list"],
  [call("bash", { command: "cd /testbed && cat y.py" }), "file_read"],
  [call("execute_bash", { command: "grep -rn x ." }), "search"],
  [call("run_command", { cmd: "sed -i 's/a/b/' f" }), "edit"],
  [call("terminal", { command: "pytest -x" }), "command"],
  [call("shell", { command: ["bash", "-lc", "cat f | grep x"] }), "search"],
  [call("shell", { command: ["rg", "-n", "foo bar"] }), "search"],
  [call("Bash"), "command"],
  // Unknown tools carrying a command line (SWE-agent style): the command decides.
  [call("python", { command: "python reproduce.py" }), "command"],
  [call("cat", { command: "cat x.txt | grep flag" }), "search"],
  [call("open", { command: "open src/app.py" }), "file_read"],
  [call("find_file", { command: "find_file missing.py" }), "directory_list"],
  // Nothing from name or args: the content decides.
  [call("WebFetch", { url: "https://x" }, '{"items": [1, 2]}'), "structured"],
  [call("WebFetch", { url: "https://x" }, "Welcome to the page."), "generic"],
  [call("think", { thought: "hmm" }, "Your thought has been logged."), "generic"],
];

describe("inferKind()", () => {
  it("returns the declared kind when there is one", () => {
    assert.equal(inferKind({ ...call("Bash", { command: "cat f" }), declared: "structured" }), "structured");
  });

  for (const [input, kind] of BY_NAME) {
    it(`${input.toolName} ${JSON.stringify(input.args)} → ${kind}`, () => {
      assert.equal(inferKind(input), kind);
    });
  }

  it("never takes matching lines (path:line:text) for a list of files", () => {
    const segment = fc.stringMatching(/^[a-z_]{1,8}$/);
    const hit = fc.tuple(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.nat(5000), fc.string({ maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(hit, { minLength: 3, maxLength: 60 }), fc.constantFrom("Grep", "grep", "search"), (hits, toolName) => {
        const text = hits.map(([path, line, rest]) => `${path.join("/")}.py:${String(line)}:${rest.replace(/\n/g, " ")}`).join("\n");
        assert.equal(inferKind({ toolName, args: { pattern: "x" }, text }), "search");
      }),
    );
  });

  it("never throws and always answers a known kind, the same each time", () => {
    const args = fc.dictionary(fc.constantFrom("command", "cmd", "path", "x"), fc.oneof(fc.string(), fc.array(fc.string()), fc.integer()));
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), args, fc.string({ unit: "binary", maxLength: 300 }), (toolName, toolArgs, text) => {
        const kind = inferKind({ toolName, args: toolArgs, text });
        assert.ok(KINDS.includes(kind));
        assert.equal(inferKind({ toolName, args: toolArgs, text }), kind);
      }),
      { numRuns: 500 },
    );
  });
});

describe("contentKind()", () => {
  const CONTENT: [string, ResultKind][] = [
    ["", "generic"],
    ['{"id": 1, "name": "x"}', "structured"],
    ["  [1, 2, 3]\n", "structured"],
    ["[true, null]", "structured"],
    ["[loupe] lines omitted]", "generic"],
    ["[tests]\nx = 1\n[more]", "generic"],
    ["src/a.py:12:def main():\nsrc/a.py:40:    main()\nsrc/b.py:3:import a\n", "search"],
    ["src/a.py:    def main():\nsrc/b.py:import a\n", "search"],
    ["12:def main():\n40:    main()\n", "search"],
    ["10-    a\n11:    b\n12-    c\n--\n40:  d\n", "search"],
    ["1:import os\n2:import sys\n3:\n4:def x():\n", "file_read"],
    ["     1\timport os\n     2\timport sys\n", "file_read"],
    ["./src/a.py\n./src/b.py\n./tests/test_a.py\nREADME.md\n", "directory_list"],
    [
      "total 8\ndrwxr-xr-x  2 root root 4096 Jan  1 00:00 src\n-rw-r--r--  1 root root  120 Jan  1 00:00 a.py\n-rw-r--r--  1 root root  120 Jan  1 00:00 b.py\n",
      "directory_list",
    ],
    ['Traceback (most recent call last):\n  File "x.py", line 1\nValueError: boom\n', "generic"],
    ["The quick brown fox.\nJumps over.\n", "generic"],
  ];
  for (const [text, kind] of CONTENT) {
    it(`${JSON.stringify(text.slice(0, 40))} → ${kind}`, () => {
      assert.equal(contentKind(text), kind);
    });
  }

  it("looks at the first 50 lines only", () => {
    const prose = "Some words here.\n".repeat(50);
    const paths = "src/a/b.py\n".repeat(10_000);
    assert.equal(contentKind(prose + paths), "generic");
    assert.equal(contentKind(paths + prose), "directory_list");
  });
});

describe("commandOf()", () => {
  it("reads a command string or an argv array, quoting argv words", () => {
    assert.equal(commandOf({ command: "ls" }), "ls");
    assert.equal(commandOf({ cmd: "ls" }), "ls");
    assert.equal(commandOf({ command: ["bash", "-lc", "cat f"] }), "cat f");
    assert.equal(commandOf({ command: ["grep", "-n", "a b", "it's"] }), "grep -n 'a b' 'it'\\''s'");
    assert.equal(commandOf({ command: "  " }), undefined);
    assert.equal(commandOf({ command: 3 }), undefined);
  });
});

describe("normalizeToolName()", () => {
  it("makes snake_case from camelCase, spaces and dots", () => {
    assert.equal(normalizeToolName("MultiEdit"), "multi_edit");
    assert.equal(normalizeToolName("str_replace_editor view"), "str_replace_editor_view");
    assert.equal(normalizeToolName("container.exec"), "container_exec");
  });
});
