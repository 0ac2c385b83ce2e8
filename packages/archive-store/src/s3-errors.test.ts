import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@loupe/errors";
import { appErrorFromS3Error } from "./s3-errors.js";

const context = { endpoint: "http://s3.test:7480", bucket: "b", operation: "get", key: "k" };

function sdkError(name: string, status?: number, code?: string): Error {
  return Object.assign(new Error(name), { name, ...(code === undefined ? {} : { code }), $metadata: { httpStatusCode: status } });
}

describe("appErrorFromS3Error()", () => {
  for (const [label, error, code] of [
    ["NoSuchKey", sdkError("NoSuchKey", 404), "not_found"],
    ["HEAD 404", sdkError("NotFound", 404), "not_found"],
    ["NoSuchBucket", sdkError("NoSuchBucket", 404), "failed_precondition"],
    ["XAmzContentSHA256Mismatch", sdkError("XAmzContentSHA256Mismatch", 400), "invalid_argument"],
    ["BadDigest", sdkError("BadDigest", 400), "invalid_argument"],
    ["AccessDenied", sdkError("AccessDenied", 403), "permission_denied"],
    ["connection refused", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "unavailable"],
    ["socket timeout", Object.assign(new Error("timed out"), { name: "TimeoutError" }), "unavailable"],
    ["503 SlowDown", sdkError("SlowDown", 503), "unavailable"],
    ["500", sdkError("InternalError", 500), "unavailable"],
    ["429", sdkError("TooManyRequests", 429), "unavailable"],
    ["400 InvalidArgument", sdkError("InvalidArgument", 400), "internal"],
    ["AbortError", Object.assign(new Error("aborted"), { name: "AbortError" }), "cancelled"],
  ] as const) {
    it(`${label} → ${code}`, () => {
      const translated = appErrorFromS3Error(error, context);
      assert.equal(translated.code, code);
      assert.equal(translated.cause, error);
      assert.match(translated.message, /\[endpoint=http:\/\/s3\.test:7480, bucket=b, operation=get, key=k/);
      assert.doesNotMatch(translated.message, /^[A-Z]/);
    });
  }

  it("names the endpoint and the reason of a network failure", () => {
    const error = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    assert.match(appErrorFromS3Error(error, context).message, /endpoint=http:\/\/s3\.test:7480.*reason=ECONNREFUSED/);
  });

  it("reports an aborted signal as cancelled, or deadline_exceeded for a timeout", () => {
    const error = sdkError("InternalError", 500);
    assert.equal(appErrorFromS3Error(error, context, AbortSignal.abort()).code, "cancelled");
    const timeout = new DOMException("late", "TimeoutError");
    assert.equal(appErrorFromS3Error(error, context, AbortSignal.abort(timeout)).code, "deadline_exceeded");
  });

  it("passes AppErrors through", () => {
    const original = new AppError("invalid_argument", "bad");
    assert.equal(appErrorFromS3Error(original, context), original);
  });
});
