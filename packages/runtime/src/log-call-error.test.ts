import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@loupe/errors";
import { createLogger } from "./logger.js";
import { logCallError, logLevelOfError } from "./log-call-error.js";

describe("logCallError()", () => {
  it("logs the caller's errors at info, limits at warn, the service's own failures at error", () => {
    const lines: string[] = [];
    const logger = createLogger({ service: "test", level: "debug", write: (line) => lines.push(line), now: () => 0 });
    logCallError(logger, "call failed", new AppError("not_found", "result not found [result_id=r_x]"), { method: "Recover" });
    logCallError(logger, "call failed", new AppError("invalid_argument", "budget_tokens out of range"));
    logCallError(logger, "call failed", new AppError("resource_exhausted", "too large"));
    logCallError(logger, "call failed", new AppError("unavailable", "archive down"));
    logCallError(logger, "call failed", new Error("boom"));
    const levels = lines.map((line) => (JSON.parse(line) as { level: string }).level);
    assert.deepEqual(levels, ["info", "info", "warn", "error", "error"]);
    assert.equal((JSON.parse(lines[0]!) as { code: string; method: string }).code, "not_found");
  });

  it("has a level for every code", () => {
    assert.equal(logLevelOfError(new AppError("internal", "x")), "error");
    assert.equal(logLevelOfError(new AppError("cancelled", "x")), "info");
    assert.equal(logLevelOfError("a string"), "error");
  });
});
