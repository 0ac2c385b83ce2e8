import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { createTokenCounter, MAX_INTENT_BYTES } from "@loupe/projection";
import { ProjectRequestSchema, ToolKind } from "@loupe/proto";
import { project, type ProjectDeps } from "./project.js";
import { projectDepsForTest } from "./project-test-deps.js";

const deps = (): ProjectDeps => projectDepsForTest(createTokenCounter("o200k_base"));

// A file read whose middle holds the function the intent names.
const file = Array.from({ length: 3000 }, (_, index) =>
  index === 1700 ? "    table[name] = resolve_lookup(name)\n" : `    value_${String(index)} = compute(${String(index)})\n`,
).join("");

function request(intent: string) {
  return create(ProjectRequestSchema, {
    sessionId: "s",
    model: "gpt-4o",
    intent,
    result: {
      toolName: "bash",
      kind: ToolKind.UNSPECIFIED,
      argsJson: JSON.stringify({ command: "cat src/lookup.py" }),
      parts: [{ content: { case: "text", value: file } }],
    },
  });
}

const textOf = (parts: readonly unknown[] | undefined): string =>
  (parts ?? [])
    .map((part) => (part as { content?: { case?: string; value?: unknown } }).content)
    .map((content) => (content?.case === "text" ? String(content.value) : ""))
    .join("");

describe("project() with an intent", () => {
  it("keeps the lines the intent names, and gives the same bytes for the same request", async () => {
    const plain = textOf((await project(request(""), "local", deps())).parts);
    const first = textOf((await project(request("Fix the bug in resolve_lookup"), "local", deps())).parts);
    const again = textOf((await project(request("Fix the bug in resolve_lookup"), "local", deps())).parts);
    assert.doesNotMatch(plain, /resolve_lookup/);
    assert.match(first, /table\[name\] = resolve_lookup\(name\)/);
    assert.equal(again, first);
  });

  it("uses the first 16 KiB of a longer intent and never refuses it", async () => {
    const filler = "é".repeat(MAX_INTENT_BYTES);
    const long = textOf((await project(request(`${filler} resolve_lookup`), "local", deps())).parts);
    const none = textOf((await project(request(filler), "local", deps())).parts);
    // The term past 16 KiB is cut off: the view is the one the first 16 KiB give.
    assert.equal(long, none);
  });
});
