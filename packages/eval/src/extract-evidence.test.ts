import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evidenceOf, extractEvidence } from "./extract-evidence.js";

const texts = (items: ReadonlyArray<{ text: string }>): string[] => items.map((item) => item.text).sort();

describe("extractEvidence()", () => {
  const cases: ReadonlyArray<readonly [string, string, readonly string[]]> = [
    ["a path", "Let me open astropy/modeling/separable.py now", ["astropy/modeling/separable.py"]],
    ["a sandbox path, stripped", "cat /testbed/django/db/models.py", ["django/db/models.py"]],
    ["./ stripped, bare file names", "see ./setup.cfg and conftest.py", ["conftest.py", "setup.cfg"]],
    ["file:line", "the failure is at src/app.ts:42", ["src/app.ts", "src/app.ts:42"]],
    ["snake_case and camelCase identifiers of 4+ characters", "call _cstack and parseArgs, not ab_c or foo", ["_cstack", "ab_c", "parseArgs"]],
    ["error names", "it raises a ValueError, then DeprecationWarning", ["DeprecationWarning", "ValueError"]],
    ["quoted strings of 4–200 characters", `prints "no such file" and 'ok' and \`make test\``, ["make test", "no such file"]],
    ["numbers of 3+ digits", "line 1234 of 56 items, version 3.10", ["1234"]],
  ];
  for (const [name, text, expected] of cases) {
    it(`finds ${name}`, () => {
      const found = texts(extractEvidence(text));
      for (const item of expected) assert.ok(found.includes(item), `${item} in ${JSON.stringify(found)}`);
      if (name.startsWith("numbers")) assert.ok(!found.includes("56") && !found.includes("3.10"));
      if (name.startsWith("snake")) assert.ok(!found.includes("foo"));
    });
  }
});

describe("evidenceOf()", () => {
  const output = ["Traceback (most recent call last):", '  File "/testbed/pkg/core.py", line 118, in load_config', "KeyError: 'database_url'"].join("\n");

  it("keeps items that occur in the output, drops those in the task or the call's args, and those inside a longer item", () => {
    const nextAction =
      "The KeyError comes from load_config in pkg/core.py line 118; the key 'database_url' is missing. I also saw run_tests and parse_settings.\n[bash] sed -n '100,130p' pkg/core.py";
    const items = evidenceOf({ nextAction, output, outputAsSeen: output, task: "parse_settings fails", argsText: "python -c 'import pkg'" });
    assert.deepEqual(texts(items), ["118", "KeyError", "database_url", "load_config", "pkg/core.py"]);
  });

  it("counts only what the agent saw when its harness had cut the output", () => {
    const asSeen = output.split("\n")[0] ?? "";
    assert.deepEqual(evidenceOf({ nextAction: "load_config failed", output, outputAsSeen: asSeen, task: "", argsText: "" }), []);
  });
});
