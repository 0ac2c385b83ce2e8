import { describe, it } from "node:test";
import fc from "fast-check";
import { projectResult, type ResultInput } from "./project-result.js";
import type { ResultKind } from "./projectors/projector.js";
import { checkLineView } from "./testing/check-line-view.js";
import { createTokenCounter } from "./token-counter.js";
import assert from "node:assert/strict";
import type { TextView } from "./head-tail-view.js";

const counter = createTokenCounter();
const KINDS: ResultKind[] = ["file_read", "directory_list", "command", "search", "conversation", "mcp", "edit", "generic"];

const line = fc.oneof(
  fc.string({ maxLength: 100 }),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom(
    "",
    "\r",
    "50%\r100%",
    "error: boom",
    "Traceback (most recent call last):",
    "src/a.ts:3:5: error: x",
    "FAILED t.py::test_x",
    "\u{1F600} astral",
    "\uFFFD",
    "x".repeat(4000),
    "## Section",
    "./src/dir/file.ts",
    "def handler_7(event):",
    "class Loader:",
    "    def load(self):",
    "        return refund_ledger.post(event)",
    // A docstring a named definition's window may pass over, and prose a Python file's outline must not take for a declaration.
    '        """Loads the ledger.',
    "        interface for the refund_ledger",
    '        """',
  ),
);
// The call's arguments: none, or a Python file read by the agent's own tool (its outline knows only def and class).
const args = fc.constantFrom("", JSON.stringify({ file_path: "src/ledger.py" }));
// With an intent, line views pick windows around its matches and a file read's map names the declarations they fall in first.
const intent = fc.constantFrom("", "Why does refund_ledger post twice? error: boom", "Look at Loader.load and FAILED t.py::test_x in ./src/dir/file.ts");
const text = fc
  .tuple(fc.array(line, { maxLength: 300 }), fc.constantFrom("\n", "\r\n"), fc.boolean())
  .map(([lines, ending, finalNewline]) => lines.join(ending) + (finalNewline && lines.length > 0 ? ending : ""));

function input(kind: ResultKind, value: string, argsJson = ""): ResultInput {
  return {
    toolName: "tool",
    declaredKind: kind,
    argsJson,
    text: value,
    structuredOnly: false,
    isError: false,
    exitCode: 1,
    timedOut: false,
    durationMs: 1200,
  };
}

describe("projectResult()", () => {
  for (const kind of KINDS) {
    it(`${kind}: bounded, deterministic, whole lines, and recoverable, with an intent or none`, () => {
      fc.assert(
        fc.property(text, fc.integer({ min: 120, max: 800 }), fc.constantFrom("", "r_test"), intent, args, (value, budget, resultId, asked, argsJson) => {
          const options = { budgetTokens: budget, maxViewBytes: 6000, counter, resultId, view: "", ...(asked === "" ? {} : { intent: asked }) };
          const view = projectResult(input(kind, value, argsJson), options);
          assert.ok(
            view.omissions.every((omission) => omission.startLine !== undefined && omission.endLine !== undefined),
            "line views name line ranges",
          );
          checkLineView(value, view as TextView, options);
          assert.deepEqual(projectResult(input(kind, value, argsJson), options), view);
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe("projectResult() on structured-only results", () => {
  it("infers structured for JSON-only results and continues by JSON pointer", () => {
    const items = Array.from({ length: 400 }, (_, index) => ({
      id: index + 1,
      title: `issue ${String(index + 1)}`,
      state: index === 200 ? "failed" : "open",
      body: "lorem ipsum ".repeat(20),
    }));
    const text = JSON.stringify({ total: items.length, items });
    const options = { budgetTokens: 1000, maxViewBytes: 50_000, counter, resultId: "r_json", view: "" };
    const view = projectResult({ ...input("generic", text), declaredKind: undefined, structuredOnly: true }, options);
    assert.equal(view.kind, "structured");
    assert.ok(counter.count(view.text) <= 1000);
    assert.ok(view.omissions.length > 0 && view.omissions.every((omission) => omission.jsonPointer !== undefined));
    for (const omission of view.omissions) assert.equal((JSON.parse(omission.continuationJson) as { result_id: string }).result_id, "r_json");
  });
});
