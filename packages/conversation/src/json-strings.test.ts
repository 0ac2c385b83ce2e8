import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonStrings } from "./json-strings.js";

describe("jsonStrings()", () => {
  it("collects every string of a JSON value in document order, and nothing else", () => {
    assert.deepEqual(
      jsonStrings({ system: "sys", messages: [{ role: "user", content: [{ type: "tool_result", n: 3, ok: true, content: [{ text: "out" }] }] }], none: null }),
      ["sys", "user", "tool_result", "out"],
    );
    assert.deepEqual(jsonStrings("alone"), ["alone"]);
    assert.deepEqual(jsonStrings(42), []);
  });
});
