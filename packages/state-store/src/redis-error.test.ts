import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@loupe/errors";
import { appErrorFromRedis, isNoScriptError } from "./redis-error.js";

function replyError(message: string): Error {
  return Object.assign(new Error(message), { name: "ReplyError" });
}

describe("appErrorFromRedis()", () => {
  for (const [message, code] of [
    ["ERR value is not an integer or out of range", "failed_precondition"],
    ["WRONGTYPE Operation against a key holding the wrong kind of value", "failed_precondition"],
    ["ERR increment or decrement would overflow", "out_of_range"],
    ["OOM command not allowed when used memory > 'maxmemory'.", "resource_exhausted"],
    ["LOADING Redis is loading the dataset in memory", "unavailable"],
    ["READONLY You can't write against a read only replica.", "unavailable"],
    ["ERR unknown command", "internal"],
  ] as const) {
    it(`reply "${message}" → ${code}`, () => {
      const error = appErrorFromRedis(replyError(message), "set", undefined);
      assert.equal(error.code, code);
      assert.equal(error.message, `redis refused the command [op=set, reply=${message.split(" ")[0]}]`);
    });
  }

  it("connection problems are unavailable and name the last connection error", () => {
    const error = appErrorFromRedis(
      Object.assign(new Error("Reached the max retries per request limit (which is 0)."), { name: "MaxRetriesPerRequestError" }),
      "get",
      "connect ECONNREFUSED 127.0.0.1:1",
    );
    assert.equal(error.code, "unavailable");
    assert.equal(error.message, "redis unavailable [op=get, reason=connect ECONNREFUSED 127.0.0.1:1]");
    assert.equal(appErrorFromRedis(new Error("Command timed out"), "ping", undefined).message, "redis unavailable [op=ping, reason=Command timed out]");
  });

  it("passes AppErrors through", () => {
    const original = new AppError("cancelled", "x");
    assert.equal(appErrorFromRedis(original, "set", undefined), original);
  });
});

describe("isNoScriptError()", () => {
  it("recognises only the NOSCRIPT reply", () => {
    assert.equal(isNoScriptError(replyError("NOSCRIPT No matching script. Please use EVAL.")), true);
    assert.equal(isNoScriptError(new Error("NOSCRIPT")), false);
  });
});
