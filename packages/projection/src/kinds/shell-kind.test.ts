import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ResultKind } from "../projectors/projector.js";
import { parseShell } from "./parse-shell.js";
import { shellKind } from "./shell-kind.js";

const CASES: [string, ResultKind][] = [
  // File reads, through cd, env assignments, wrappers and pipes.
  ["cat src/app.ts", "file_read"],
  ["cd /testbed && cat y.py", "file_read"],
  ["cd a && cd b && FOO=1 sudo -u root cat y", "file_read"],
  ["/bin/cat -n f.py", "file_read"],
  ["cat f.py | head -50", "file_read"],
  ["nl -ba f.py | sed -n '1,10p'", "file_read"],
  ["sed -n '10,20p' f.py", "file_read"],
  ["sed -e 's/a/b/' f.py", "file_read"],
  ["head -50 f.py", "file_read"],
  ["tail -n 20 log.txt", "file_read"],
  ["awk 'NR>=10 && NR<=20' f.py", "file_read"],
  ["cp a b && cat b", "file_read"],
  ["python x.py > out.txt 2>&1; cat out.txt", "file_read"],
  // Searches.
  ["cat f | grep x", "search"],
  ['cat ./django/utils/http.py | grep -n -B10 -A10 "year < 70"', "search"],
  ['grep -rn "foo" src/', "search"],
  ["cd /repo && rg -n 'def main' --type py | head -20", "search"],
  ["/usr/bin/grep x f", "search"],
  ["env LC_ALL=C grep x f", "search"],
  ["git grep -n foo", "search"],
  ["git -C repo grep foo", "search"],
  ["find . -name '*.py' -exec grep -n foo {} \\;", "search"],
  ["find . -type f | xargs grep -n foo | head -5", "search"],
  ["find . -name '*.py' -exec grep -l foo {} \\; | xargs grep -n bar", "search"],
  ["grep -e -l x f", "search"],
  ["grep -A 3 -rn foo src", "search"],
  ["rg -L foo", "search"],
  ["rg -n -- -l src", "search"],
  // Printing the names of the files that match is a list of paths.
  ["find . -name '*.py' -exec grep -l foo {} \\;", "directory_list"],
  ["find . -type f | xargs grep -l foo | head -5", "directory_list"],
  ["find . -type f | xargs grep -l foo | grep -v test", "directory_list"],
  ["grep -rl foo src", "directory_list"],
  ["grep -Ril foo src", "directory_list"],
  ["grep --files-with-matches foo src", "directory_list"],
  ["grep -L foo *.py", "directory_list"],
  ["rg -l foo", "directory_list"],
  ["rg --files src", "directory_list"],
  ["git grep -l foo", "directory_list"],
  ["ag -l foo", "directory_list"],
  ["sed -i 's/a/b/' f && grep -n b f", "search"],
  ["# look for uses\ngrep -n x f", "search"],
  // Listings.
  ["ls -la", "directory_list"],
  ["pwd && ls -la", "directory_list"],
  ["tree -L 2", "directory_list"],
  ["sudo -u root ls /root", "directory_list"],
  ["find . -name '*.py'", "directory_list"],
  ["find . -name '*.py' | grep test", "directory_list"],
  ["git ls-files | head", "directory_list"],
  ["cat <<-EOF > f\n\tx\n\tEOF\nls", "directory_list"],
  // Edits: only writes, no output of their own.
  ["sed -i 's/a/b/' f.py", "edit"],
  ["sed -i.bak -e 's/a/b/' f.py", "edit"],
  ["cd /testbed && sed -i '10d' f.py", "edit"],
  ["echo hello > f.txt", "edit"],
  ["echo hello >> f.txt", "edit"],
  ["cat > t.py << 'EOF'\nimport os\nos.system('grep -r x . | cat')\nEOF", "edit"],
  ["patch -p1 < fix.patch", "edit"],
  ["cp a b && sed -i '3d' b && mv b a", "edit"],
  // Commands.
  ["echo hello", "command"],
  ['echo "a > b"', "command"],
  ["echo x > /dev/null", "command"],
  ["python -c \"import os; print('grep')\"", "command"],
  ["cd /testbed && python -c \"\nimport re\n# cat the file, then grep it\nprint(open('f').read())\n\"", "command"],
  ["python3 script.py 2>&1 | grep -v Warning", "command"],
  ["python -m pytest -x tests/ 2>&1 | tail -50", "command"],
  ["cat > t.py << 'EOF'\ngrep x\nEOF\npython t.py", "command"],
  ["python3 << 'EOF'\nprint(open('f').read())\nEOF", "command"],
  ["cat <<EOF\nhello\nEOF", "command"],
  ["git diff", "command"],
  ["git log --oneline | head", "command"],
  ["cp a b", "command"],
  ["mkdir -p x && cd x", "command"],
  ["timeout 30 pytest -x", "command"],
  ["for f in *.py; do cat $f; done", "command"],
  ["if grep -q x f; then echo y; fi", "command"],
  ["make 2>&1 | tail -20", "command"],
  ["FOO=bar BAZ=1 python x.py", "command"],
  ["echo 'select 1;' | sqlfluff lint -", "command"],
  ["x=$(cat f | grep y) && echo $x", "command"],
  ["", "command"],
];

describe("shellKind()", () => {
  for (const [command, kind] of CASES) {
    it(`${JSON.stringify(command.length > 70 ? `${command.slice(0, 70)}…` : command)} → ${kind}`, () => {
      assert.equal(shellKind(command), kind);
    });
  }

  it("never throws and is deterministic on arbitrary text", () => {
    const shellish = fc.string({ unit: fc.constantFrom(..."ab cat grep sed -i > >> < << | & ; ( ) $ ` ' \" \\ # \n\tEOF".split(" ")), maxLength: 60 });
    fc.assert(
      fc.property(fc.oneof(shellish, fc.string({ unit: "binary", maxLength: 200 })), (command) => {
        assert.equal(shellKind(command), shellKind(command));
      }),
      { numRuns: 500 },
    );
  });
});

describe("parseShell()", () => {
  it("skips here-document bodies and keeps the commands after them", () => {
    const pipelines = parseShell("cat > t.py << 'EOF'\nrm -rf /\nEOF\npython t.py | tail -5");
    assert.deepEqual(
      pipelines.map((pipeline) => pipeline.map((command) => command.words)),
      [
        [["cat"]],
        [
          ["python", "t.py"],
          ["tail", "-5"],
        ],
      ],
    );
    assert.equal(pipelines[0]?.[0]?.stdout, "file");
  });

  it("removes quotes, keeps quoted operators as text and reads fd redirections", () => {
    const [pipeline] = parseShell(`grep -n "a|b; c" 'x y' 2>&1 >/dev/null`);
    assert.deepEqual(pipeline?.[0]?.words, ["grep", "-n", "a|b; c", "x y"]);
    assert.equal(pipeline?.[0]?.stdout, "discard");
  });

  it("keeps $(…) and backticks inside one word", () => {
    const [pipeline] = parseShell("echo $(cat f | grep x) `ls | wc -l`");
    assert.deepEqual(pipeline?.[0]?.words, ["echo", "$(cat f | grep x)", "`ls | wc -l`"]);
  });

  it("reads only the first 64 Ki characters of a huge command", () => {
    const pipelines = parseShell(`cat f; ${"x".repeat(200_000)}; ls`);
    assert.equal(pipelines.length, 2);
  });
});
