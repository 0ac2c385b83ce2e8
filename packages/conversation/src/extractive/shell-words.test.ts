import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { shellCommands } from "./shell-words.js";

describe("shellCommands()", () => {
  it("splits at operators and unquotes words", () => {
    assert.deepStrictEqual(
      shellCommands(`cd /repo && grep -n "a b" 'c d.py' | head -5; echo "x\\"y"`).map((command) => command.words),
      [
        ["cd", "/repo"],
        ["grep", "-n", "a b", "c d.py"],
        ["head", "-5"],
        ["echo", 'x"y'],
      ],
    );
  });

  it("reads redirections and skips descriptor duplications", () => {
    assert.deepStrictEqual(
      shellCommands("python a.py > out.txt 2>&1 < in.txt").map((command) => command.redirects),
      [
        [
          { op: ">", fd: "", target: "out.txt" },
          { op: "<", fd: "", target: "in.txt" },
        ],
      ],
    );
  });

  it("skips here-document bodies", () => {
    const commands = shellCommands("cat > f.py << 'EOF'\nrm -rf /\nEOF\npython f.py");
    assert.deepStrictEqual(
      commands.map((command) => command.words),
      [["cat"], ["python", "f.py"]],
    );
  });

  it("keeps command substitutions inside their word", () => {
    assert.deepStrictEqual(
      shellCommands("echo $(ls | wc -l) done").map((command) => command.words),
      [["echo", "$(ls | wc -l)", "done"]],
    );
  });

  it("never throws and ends on any input", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (script) => void shellCommands(script)));
  });
});
