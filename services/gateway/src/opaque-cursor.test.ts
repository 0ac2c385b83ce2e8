import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { decodeHistoryCursor, encodeHistoryCursor } from "./conversation/history-cursor.js";
import { cursorKind, readCursor, writeCursor } from "./opaque-cursor.js";

const legacy = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
const malformed = (error: unknown) => isAppError(error) && error.code === "invalid_argument";

describe("one cursor format", () => {
  it("writes every kind as { v: 2, k, … } and reads it back only as that kind", () => {
    const range = encodeCursor({ tenant: "t", resultId: "r_1", revision: "sha256:a", startByte: 10, endByte: 20, line: 3, atLineStart: true });
    assert.equal((JSON.parse(Buffer.from(range, "base64url").toString("utf8")) as { k: string }).k, "range");
    assert.equal(cursorKind(range), "range");
    assert.equal(decodeCursor(range, "t", "r_1").startByte, 10);
    const history = encodeHistoryCursor({ sessionId: "s", seq: 4, offset: 0, endSeq: 0 });
    assert.equal(cursorKind(history), "history");
    assert.throws(() => decodeCursor(history, "t", ""), malformed, "a history cursor is no range cursor");
    assert.throws(() => readCursor(writeCursor("pattern", {}), "range"), malformed);
  });

  it("keeps reading cursors handed out before it (v: 1, p1, h1)", () => {
    const oldRange = legacy({ v: 1, t: "t", r: "r_1", h: "sha256:a", s: 0, e: 5, l: 1, a: true });
    assert.equal(decodeCursor(oldRange, "t", "r_1").endByte, 5);
    assert.equal(cursorKind(legacy({ v: "p1", t: "t", r: "r_1", h: "h", p: "x", c: 0, f: 1, n: 0 })), "pattern");
    assert.equal(decodeHistoryCursor(legacy({ v: "h1", s: "s", n: 2, o: 0, e: 0 }), "s").seq, 2);
    assert.equal(cursorKind("not a cursor"), undefined);
  });
});
