import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { revisionOf } from "@loupe/archive-store/content";
import { ToolResultSchema, type Part } from "@loupe/proto";
import { resultContent } from "./tool-result-content.js";

const resultOf = (...parts: Part["content"][]) => create(ToolResultSchema, { toolName: "bash", parts: parts.map((content) => ({ content })) });
const decoded = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe("resultContent()", () => {
  it("keeps the request's own string as the text of a canonical result, and its UTF-8 as the bytes", () => {
    const value = "ok\n".repeat(50_000);
    const content = resultContent(resultOf({ case: "text", value }));
    assert.equal(content.text, value);
    assert.equal(decoded(content.bytes), value);
    assert.equal(content.revision, revisionOf(new TextEncoder().encode(value)));
  });

  it("gives the text the saved bytes decode to when the request's is not canonical", () => {
    for (const value of ["a\uD800b", "\uFEFFstarts with a byte-order mark", "ends with half a pair \uD83D"]) {
      const content = resultContent(resultOf({ case: "text", value }));
      assert.equal(content.text, decoded(content.bytes), JSON.stringify(value));
      assert.notEqual(content.text, value);
    }
  });

  it("joins text and JSON parts with a newline in the text and the bytes alike, with the JSON's place", () => {
    const content = resultContent(resultOf({ case: "text", value: "é" }, { case: "json", value: '{"a":1}' }));
    assert.equal(content.text, 'é\n{"a":1}');
    assert.equal(decoded(content.bytes), content.text);
    assert.deepEqual(content.structuredTail, { startChar: 2, startByte: 3 });
  });
});
