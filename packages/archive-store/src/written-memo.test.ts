import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createWrittenMemo, MAX_REMEMBERED_BYTES } from "./written-memo.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("createWrittenMemo()", () => {
  it("holds what a write left, until the next write or delete of the path begins", () => {
    const memo = createWrittenMemo();
    assert.equal(memo.holds("p", bytes("a")), false);
    memo.begin("p")(bytes("a"));
    assert.equal(memo.holds("p", bytes("a")), true);
    assert.equal(memo.holds("p", bytes("b")), false);
    assert.equal(memo.holds("q", bytes("a")), false);
    const end = memo.begin("p");
    assert.equal(memo.holds("p", bytes("a")), false, "a write under way");
    end(undefined);
    assert.equal(memo.holds("p", bytes("a")), false, "a failed write or a delete forgets");
  });

  it("keeps its own copy of the bytes", () => {
    const memo = createWrittenMemo();
    const body = bytes("abc");
    memo.begin("p")(body);
    body[0] = 0x7a;
    assert.equal(memo.holds("p", bytes("abc")), true);
  });

  it("remembers nothing of writes that overlapped", () => {
    const memo = createWrittenMemo();
    const first = memo.begin("p");
    const second = memo.begin("p");
    second(bytes("b"));
    first(bytes("a"));
    assert.equal(memo.holds("p", bytes("a")), false);
    assert.equal(memo.holds("p", bytes("b")), false);
    memo.begin("p")(bytes("c"));
    assert.equal(memo.holds("p", bytes("c")), true, "a later lone write is remembered");
  });

  it("skips large bodies and forgets the least recently used path past its bound", () => {
    const memo = createWrittenMemo(2);
    memo.begin("big")(new Uint8Array(MAX_REMEMBERED_BYTES + 1));
    assert.equal(memo.holds("big", new Uint8Array(MAX_REMEMBERED_BYTES + 1)), false);
    memo.begin("a")(bytes("1"));
    memo.begin("b")(bytes("2"));
    assert.equal(memo.holds("a", bytes("1")), true);
    memo.begin("c")(bytes("3"));
    assert.equal(memo.holds("b", bytes("2")), false, "b was least recently used");
    assert.equal(memo.holds("a", bytes("1")), true);
    assert.equal(memo.holds("c", bytes("3")), true);
  });
});
