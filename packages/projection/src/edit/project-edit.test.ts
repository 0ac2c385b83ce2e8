import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { createTokenCounter } from "../token-counter.js";
import { projectEdit } from "./project-edit.js";

const counter = createTokenCounter();

describe("projectEdit()", () => {
  it("keeps the status lines of a long edit result wherever they sit", () => {
    const lines = [
      "Applying patch to src/server/routes.ts",
      ...Array.from(
        { length: 1500 },
        (_, index) => `  ${String(index + 1).padStart(4)} | const handler${String(index)} = createHandler({ route: "/api/v1/resource/${String(index)}" });`,
      ),
      "error: patch failed: src/server/routes.ts:812",
      "Hunk #3 FAILED at 812 (different line endings?)",
      ...Array.from({ length: 1500 }, (_, index) => `  ${String(index + 1501).padStart(4)} | export { handler${String(index)} };`),
      "1 out of 3 hunks FAILED -- saving rejects to file src/server/routes.ts.rej",
      "Next: resolve the rejected hunk, then re-run the tests.",
    ];
    const text = lines.join("\n") + "\n";
    const options = { budgetTokens: 600, maxViewBytes: 50_000, counter, resultId: "r_e", view: "" };
    const view = projectEdit(
      { text, lines: splitLines(text), toolName: "apply_patch", args: {}, isError: true, exitCode: 1, timedOut: false, durationMs: undefined },
      options,
    );
    checkLineView(text, view, options);
    for (const status of [
      "error: patch failed: src/server/routes.ts:812",
      "Hunk #3 FAILED at 812",
      "1 out of 3 hunks FAILED",
      "Next: resolve the rejected hunk",
    ])
      assert.ok(view.text.includes(status), status);
    assert.match(view.text, /^\[loupe\] the edit failed \(is_error\)$/m);
  });
});
