import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { AppError, ERROR_CODES } from "@loupe/errors";
import { httpStatusOf, sendHttpError } from "./http-error.js";

describe("httpStatusOf()", () => {
  it("maps every code, and resource_exhausted by its reason", () => {
    for (const code of ERROR_CODES) assert.ok(httpStatusOf(new AppError(code, "x")) >= 400, code);
    assert.equal(httpStatusOf(new AppError("not_found", "x")), 404);
    assert.equal(httpStatusOf(new AppError("resource_exhausted", "x", { reason: "too_large" })), 413);
    assert.equal(httpStatusOf(new AppError("resource_exhausted", "x", { reason: "rate_limited" })), 429);
    assert.equal(httpStatusOf(new AppError("resource_exhausted", "x", { reason: "overloaded" })), 503);
    assert.equal(httpStatusOf(new Error("boom")), 500);
  });

  it("answers { code, message } with Retry-After when the error says when to retry", async () => {
    const server = createServer((_request, response) =>
      sendHttpError(response, new AppError("resource_exhausted", "slow down [limit=10/s]", { reason: "rate_limited", retryAfterMs: 1500 })),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`);
      assert.equal(answer.status, 429);
      assert.equal(answer.headers.get("retry-after"), "2");
      assert.deepEqual(await answer.json(), { code: "resource_exhausted", message: "slow down [limit=10/s]" });
    } finally {
      server.close();
    }
  });
});
