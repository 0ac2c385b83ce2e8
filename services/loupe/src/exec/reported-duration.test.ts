import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reportedDurationMs } from "./exec-command.js";

describe("reportedDurationMs()", () => {
  it("takes --duration-ms, else the difference of the shell's SECONDS, else 0 (unknown)", () => {
    assert.equal(reportedDurationMs("1500", "3", "9"), 1500);
    assert.equal(reportedDurationMs(undefined, "3", "9"), 6000);
    assert.equal(reportedDurationMs(undefined, "", ""), 0, "sh has no SECONDS");
    assert.equal(reportedDurationMs(undefined, "9", "3"), 0);
    assert.equal(reportedDurationMs("-1", undefined, undefined), 0);
  });
});
