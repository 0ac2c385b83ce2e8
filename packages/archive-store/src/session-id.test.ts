import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { checkSessionIdLength, MAX_SESSION_ID_CHARS, validateSessionId } from "./session-id.js";

const invalid = (error: unknown) => isAppError(error) && error.code === "invalid_argument";

describe("session ids", () => {
  it("accept up to MAX_SESSION_ID_CHARS characters, refuse more, and need one only for turn calls", () => {
    validateSessionId("s".repeat(MAX_SESSION_ID_CHARS));
    checkSessionIdLength("");
    assert.throws(() => validateSessionId("s".repeat(MAX_SESSION_ID_CHARS + 1)), invalid);
    assert.throws(() => checkSessionIdLength("s".repeat(MAX_SESSION_ID_CHARS + 1)), invalid);
    assert.throws(() => validateSessionId(""), invalid);
  });
});
