import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { readBool, readEnum, readInt, readList, readPort, readString, readUrl, throwOnProblems } from "./index.js";

describe("readers", () => {
  it("treat blank as unset and trim", () => {
    assert.equal(readString({ A: "  " }, "A", "d"), "d");
    assert.equal(readString({ A: " x " }, "A", "d"), "x");
  });

  it("collect every problem instead of stopping at the first", () => {
    const problems: string[] = [];
    const env = { P: "99999", I: "1.5", B: "maybe", E: "c", U: "http://x" };
    assert.equal(readPort(env, "P", 1, problems), 1);
    assert.equal(readInt(env, "I", 2, problems), 2);
    assert.equal(readBool(env, "B", false, problems), false);
    assert.equal(readEnum(env, "E", ["a", "b"], "a", problems), "a");
    assert.equal(readUrl(env, "U", "nats://d", ["nats:"], problems), "nats://d");
    assert.equal(problems.length, 5);
    assert.throws(
      () => throwOnProblems("gateway", problems),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument" && /P=99999/.test(error.message) && /U=http/.test(error.message),
    );
  });

  it("parse good values", () => {
    const problems: string[] = [];
    assert.equal(readInt({ N: "42" }, "N", 0, problems, { min: 1 }), 42);
    assert.equal(readBool({ B: "ON" }, "B", false, problems), true);
    assert.deepEqual(readList({ L: "a, b,,c " }, "L", []), ["a", "b", "c"]);
    assert.deepEqual(problems, []);
    assert.doesNotThrow(() => throwOnProblems("x", problems));
  });
});
