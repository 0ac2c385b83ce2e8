import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError, isAppError, isRetryable } from "./index.js";

describe("AppError", () => {
  it("keeps code, message and cause", () => {
    const cause = new Error("socket hang up");
    const error = new AppError("unavailable", "archive unreachable [addr=x]", { cause });
    assert.equal(error.code, "unavailable");
    assert.equal(error.message, "archive unreachable [addr=x]");
    assert.equal(error.cause, cause);
    assert.equal(error.name, "AppError");
  });

  it("from() passes an AppError through and wraps anything else as internal", () => {
    const original = new AppError("not_found", "result not found");
    assert.equal(AppError.from(original), original);
    const wrapped = AppError.from(new TypeError("boom"));
    assert.equal(wrapped.code, "internal");
    assert.equal(wrapped.message, "boom");
    assert.equal(AppError.from("text", "invalid_argument").code, "invalid_argument");
  });
});

describe("isAppError()", () => {
  it("recognises the shape, not only the class", () => {
    const lookalike = Object.assign(new Error("x"), { name: "AppError", code: "not_found" });
    assert.equal(isAppError(lookalike), true);
    assert.equal(isAppError(Object.assign(new Error("x"), { name: "AppError", code: "bogus" })), false);
    assert.equal(isAppError({ name: "AppError", code: "not_found" }), false);
    assert.equal(isAppError(new Error("x")), false);
  });
});

describe("isRetryable()", () => {
  for (const [code, expected] of [
    ["unavailable", true],
    ["deadline_exceeded", true],
    ["aborted", true],
    ["invalid_argument", false],
    ["internal", false],
  ] as const) {
    it(`${code} → ${String(expected)}`, () => {
      assert.equal(isRetryable(new AppError(code, "x")), expected);
    });
  }
  it("plain errors are not retryable", () => assert.equal(isRetryable(new Error("x")), false));
  it("resource_exhausted is retryable as load, never as a request too large", () => {
    assert.equal(isRetryable(new AppError("resource_exhausted", "x", { reason: "rate_limited" })), true);
    assert.equal(isRetryable(new AppError("resource_exhausted", "x", { reason: "overloaded" })), true);
    assert.equal(isRetryable(new AppError("resource_exhausted", "x", { reason: "too_large" })), false);
    assert.equal(isRetryable(new AppError("resource_exhausted", "x")), false);
  });
});
