import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { decodeCursor, encodeCursor, type CursorState } from "./cursor.js";

const state: CursorState = { tenant: "local", resultId: "r_abc", revision: "sha256:00", startByte: 10, endByte: 99, line: 3, atLineStart: true };
const refused = (error: unknown) => isAppError(error) && error.code === "invalid_argument";

describe("cursors", () => {
  it("round-trip", () => {
    assert.deepEqual(decodeCursor(encodeCursor(state), "local", "r_abc"), state);
    assert.deepEqual(decodeCursor(encodeCursor(state), "local", ""), state, "the result id may come from the cursor alone");
  });

  it("are bound to tenant and result", () => {
    assert.throws(() => decodeCursor(encodeCursor(state), "other", "r_abc"), refused);
    assert.throws(() => decodeCursor(encodeCursor(state), "local", "r_other"), refused);
  });

  it("refuse garbage and out-of-order positions", () => {
    for (const cursor of [
      "",
      "%%%",
      Buffer.from("{}").toString("base64url"),
      encodeCursor({ ...state, startByte: 100, endByte: 5 }),
      encodeCursor({ ...state, startByte: -1 }),
    ]) {
      assert.throws(() => decodeCursor(cursor, "local", "r_abc"), refused, cursor);
    }
  });
});
