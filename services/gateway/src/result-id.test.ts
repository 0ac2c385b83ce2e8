import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resultIdFor } from "./result-id.js";

describe("resultIdFor()", () => {
  it("is stable for the same tenant, session and revision, and differs otherwise", () => {
    const id = resultIdFor("key", "local", "s1", "sha256:aa");
    assert.match(id, /^r_[A-Za-z0-9_-]{32}$/);
    assert.equal(resultIdFor("key", "local", "s1", "sha256:aa"), id);
    const others = [
      resultIdFor("key2", "local", "s1", "sha256:aa"),
      resultIdFor("key", "t2", "s1", "sha256:aa"),
      resultIdFor("key", "local", "s2", "sha256:aa"),
      resultIdFor("key", "local", "s1", "sha256:ab"),
    ];
    assert.equal(new Set([id, ...others]).size, 5);
    // The separator keeps ("ab", "c") and ("a", "bc") apart.
    assert.notEqual(resultIdFor("k", "ab", "c", "r"), resultIdFor("k", "a", "bc", "r"));
  });
});
