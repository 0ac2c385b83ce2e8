import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { shellWords } from "./shell-words.js";

describe("shellWords()", () => {
  it("splits pipelines and commands, removes quotes and redirections", () => {
    assert.deepEqual(shellWords(`cd /testbed && sed -n '10,20p' "a b.py" 2>&1 | head -5; echo done`), [
      [["cd", "/testbed"]],
      [
        ["sed", "-n", "10,20p", "a b.py"],
        ["head", "-5"],
      ],
      [["echo", "done"]],
    ]);
    assert.deepEqual(shellWords(`grep -n '>' f.py 2> /dev/null`), [[["grep", "-n", ">", "f.py"]]]);
  });

  it("gives up on here-documents, substitutions and unbalanced quotes", () => {
    for (const command of [
      "cat > f.py << 'EOF'\nx\nEOF",
      "cat $(ls)",
      "cat `ls`",
      "cat 'open",
      "(cd x && cat y)",
      'cat "$(ls)"',
      "cat <<< text",
      "diff <(a) <(b)",
    ]) {
      assert.equal(shellWords(command), undefined, command);
    }
  });
});
