import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { callInfoOf } from "./call-info.js";
import type { FileTouch } from "./extract-files.js";

function touches(name: string, args: unknown): string[] {
  return callInfoOf({ name, argsJson: typeof args === "string" ? args : JSON.stringify(args) }).files.map(
    (touch: FileTouch) => `${touch.access} ${touch.path}`,
  );
}

describe("filesOfCall() through callInfoOf()", () => {
  const cases: [string, string, unknown, string[]][] = [
    ["Claude Code Read", "Read", { file_path: "/repo/src/a.ts", offset: 10 }, ["read /repo/src/a.ts"]],
    ["Claude Code Edit", "Edit", { file_path: "/repo/src/a.ts", old_string: "x", new_string: "y" }, ["edited /repo/src/a.ts"]],
    ["Claude Code MultiEdit", "MultiEdit", { file_path: "src/b.ts", edits: [] }, ["edited src/b.ts"]],
    ["Claude Code Write", "Write", { file_path: "./notes/plan.md", content: "…" }, ["created notes/plan.md"]],
    ["NotebookEdit", "NotebookEdit", { notebook_path: "/n/analysis.ipynb", new_source: "" }, ["edited /n/analysis.ipynb"]],
    ["Gemini read_file", "read_file", { absolute_path: "/w/main.go" }, ["read /w/main.go"]],
    ["Gemini read_many_files", "read_many_files", { paths: ["a.py", "b.py"] }, ["read a.py", "read b.py"]],
    ["OpenHands editor view", "str_replace_editor", { command: "view", path: "/workspace/x/README.md" }, ["read /workspace/x/README.md"]],
    ["OpenHands editor create", "str_replace_editor", { command: "create", path: "/workspace/x/new.py", file_text: "" }, ["created /workspace/x/new.py"]],
    ["Anthropic text editor", "str_replace_based_edit_tool", { command: "str_replace", path: "lib/y.rb", old_str: "a", new_str: "b" }, ["edited lib/y.rb"]],
    ["Grep searches, touches nothing", "Grep", { pattern: "TODO", path: "src" }, []],
    ["Glob searches, touches nothing", "Glob", { pattern: "**/*.ts" }, []],
    [
      "apply_patch tool",
      "apply_patch",
      { input: "*** Begin Patch\n*** Add File: src/new.py\n+x\n*** Update File: src/old.py\n@@\n-a\n+b\n*** Delete File: src/gone.py\n*** End Patch" },
      ["created src/new.py", "edited src/old.py", "deleted src/gone.py"],
    ],
    ["shell cat", "Bash", { command: "cat ./astropy/modeling/separable.py" }, ["read astropy/modeling/separable.py"]],
    [
      "shell cat piped to grep",
      "bash",
      { command: "cd /testbed && cat astropy/io/fits/card.py | grep -n 'def _parse' -A 5" },
      ["read astropy/io/fits/card.py"],
    ],
    ["shell sed -n reads", "bash", { command: "sed -n '100,140p' django/db/models/query.py" }, ["read django/db/models/query.py"]],
    ["shell sed -i edits", "bash", { command: "sed -i 's/foo/bar/g' src/x.c src/y.c" }, ["edited src/x.c", "edited src/y.c"]],
    ["shell sed -i -e", "bash", { command: "sed -i.bak -e 's/a/b/' config.yaml" }, ["edited config.yaml"]],
    [
      "heredoc create, body skipped",
      "bash",
      { command: "cat > test_fix.py << 'EOF'\ncat other.py\nrm important.py\nEOF\npython test_fix.py" },
      ["created test_fix.py"],
    ],
    ["echo append", "bash", { command: "echo 'x = 1' >> settings.py" }, ["edited settings.py"]],
    ["tee", "bash", { command: "printf 'a\\n' | tee out/result.txt" }, ["created out/result.txt"]],
    [
      "cp and mv",
      "bash",
      { command: "cp a/separable.py a/separable.py.backup && mv tmp.txt final.txt" },
      ["read a/separable.py", "created a/separable.py.backup", "deleted tmp.txt", "created final.txt"],
    ],
    ["rm", "bash", { command: "rm -f reproduce.py test_*.py" }, ["deleted reproduce.py"]],
    ["redirect to /dev/null and 2>&1 ignored", "bash", { command: "python run.py > /dev/null 2>&1" }, []],
    [
      "python open() in an inline script",
      "bash",
      { command: "python3 -c \"\nwith open('pkg/mod.py', 'w') as f:\n    f.write(src)\n\"" },
      ["edited pkg/mod.py"],
    ],
    ["Codex shell array", "shell", { command: ["bash", "-lc", "cat src/main.rs"] }, ["read src/main.rs"]],
    [
      "Codex apply_patch through the shell",
      "shell",
      { command: ["apply_patch", "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+b\n*** End Patch"] },
      ["edited src/lib.rs"],
    ],
    ["SWE-agent raw command line", "open", "open src/sympy/core.py\n", ["read src/sympy/core.py"]],
    ["SWE-agent create", "create", "create reproduce.py\n", ["created reproduce.py"]],
    ["no file in a plain command", "bash", { command: "pip install -e . && pytest -x" }, []],
    ["URLs and options are not files", "bash", { command: "curl -o - https://example.com/a.tar.gz" }, []],
  ];
  for (const [title, name, args, expected] of cases) {
    it(title, () => {
      assert.deepStrictEqual(touches(name, args), expected);
    });
  }
});

describe("callInfoOf()", () => {
  it("summarizes a shell call by its first line, without a leading cd", () => {
    const info = callInfoOf({ name: "Bash", argsJson: JSON.stringify({ command: "cd /repo && npm test\necho done" }) });
    assert.equal(info.summary, "Bash `npm test …`");
  });

  it("gives the same key to the same command run from the same or no cd", () => {
    const key = (command: string): string => callInfoOf({ name: "Bash", argsJson: JSON.stringify({ command }) }).key;
    assert.equal(key("cd /repo && npm  test"), key("npm test"));
    assert.notEqual(key("npm test"), key("npm run lint"));
  });

  it("names an editor call by its sub-command and file", () => {
    const info = callInfoOf({ name: "str_replace_editor", argsJson: JSON.stringify({ command: "str_replace", path: "/w/a.py", old_str: "a", new_str: "b" }) });
    assert.equal(info.summary, "str_replace_editor str_replace /w/a.py");
    assert.equal(info.command, "");
  });

  it("never throws on arguments that are not JSON", () => {
    const info = callInfoOf({ name: "weird", argsJson: "{not json" });
    assert.equal(info.command, "{not json");
  });
});
