import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readScopeOf } from "./read-scope.js";

describe("readScopeOf", () => {
  it("is empty for whole-file reads, so they are compared with each other", () => {
    assert.equal(readScopeOf({ file_path: "src/app.ts" }), "");
    assert.equal(readScopeOf({ command: "cat src/app.ts" }), "");
    assert.equal(readScopeOf({ command: "nl -ba 'src/my app.ts'" }), "");
    assert.equal(readScopeOf({ command: "cat -n src/app.ts" }), "");
    // Arguments that do not name a range (an explanation, a flag) are not part of the scope.
    assert.equal(readScopeOf({ target_file: "src/app.ts", should_read_entire_file: true, explanation: "look at the parser" }), "");
    assert.equal(readScopeOf({ target_file: "a.ts", explanation: "first look" }), readScopeOf({ target_file: "a.ts", explanation: "second look" }));
  });

  it("names the part read by a range, so different parts of one file are never taken for a change", () => {
    const first = readScopeOf({ command: "sed -n '1,40p' src/app.ts" });
    const second = readScopeOf({ command: "sed -n '41,80p' src/app.ts" });
    assert.notEqual(first, "");
    assert.notEqual(first, second);
    assert.equal(readScopeOf({ file_path: "a.ts", offset: 100, limit: 50 }), readScopeOf({ limit: 50, offset: 100, file_path: "a.ts" }));
    assert.notEqual(readScopeOf({ file_path: "a.ts", offset: 100, limit: 50 }), readScopeOf({ file_path: "a.ts", offset: 150, limit: 50 }));
    assert.notEqual(readScopeOf({ command: "cat a.ts | head -20" }), "");
  });
});
