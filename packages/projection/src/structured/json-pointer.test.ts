import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import fc from "fast-check";
import { appendPointer, escapePointerSegment, parseJsonPointer, resolveJsonPointer } from "./json-pointer.js";
import { recoverJsonText } from "./recover-json-text.js";

// JSON.parse defines "__proto__" as an own member, as a tool's JSON would.
const parsed = JSON.parse('{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\\\j":5,"k\\"l":6," ":7,"m~n":8,"__proto__":9}') as Record<
  string,
  unknown
>;

const throwsCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;

describe("JSON pointers", () => {
  it("resolves the examples of RFC 6901 section 5", () => {
    const cases: Array<[string, unknown]> = [
      ["", parsed],
      ["/foo", ["bar", "baz"]],
      ["/foo/0", "bar"],
      ["/", 0],
      ["/a~1b", 1],
      ["/c%d", 2],
      ["/e^f", 3],
      ["/g|h", 4],
      ["/i\\j", 5],
      ['/k"l', 6],
      ["/ ", 7],
      ["/m~0n", 8],
      ["/__proto__", 9],
    ];
    for (const [pointer, expected] of cases) assert.deepEqual(resolveJsonPointer(parsed, pointer), { found: true, value: expected }, pointer);
  });

  it("finds nothing for missing members, non-canonical indexes and inherited members", () => {
    for (const pointer of ["/nope", "/foo/2", "/foo/01", "/foo/-", "/foo/1e0", "/foo/0/x", "/toString", "/constructor"]) {
      assert.deepEqual(resolveJsonPointer(parsed, pointer), { found: false }, pointer);
    }
  });

  it("refuses malformed pointers", () => {
    assert.throws(() => parseJsonPointer("foo"), throwsCode("invalid_argument"));
    assert.throws(() => parseJsonPointer("/a~2b"), throwsCode("invalid_argument"));
    assert.throws(() => parseJsonPointer("/a~"), throwsCode("invalid_argument"));
  });

  it("escapes and parses back any key", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 6 }), (keys) => {
        const pointer = keys.reduce<string>((current, key) => appendPointer(current, key), "");
        assert.deepEqual(parseJsonPointer(pointer), keys);
        for (const key of keys) assert.ok(!escapePointerSegment(key).replace(/~[01]/g, "").includes("~"));
      }),
    );
  });
});

describe("recoverJsonText()", () => {
  const value = { items: [{ id: 1 }, { id: 2 }, { id: 3 }], body: "line 1\nline 2", n: 4, nested: { a: [1], b: null } };

  it("serves strings as their text, arrays one item per line, objects one member per line", () => {
    assert.equal(recoverJsonText(value, { jsonPointer: "/body" }), "line 1\nline 2");
    assert.equal(recoverJsonText(value, { jsonPointer: "/items" }), '[\n{"id":1},\n{"id":2},\n{"id":3}\n]');
    assert.equal(recoverJsonText(value, { jsonPointer: "/nested" }), '{\n"a":[1],\n"b":null\n}');
    assert.equal(recoverJsonText(value, { jsonPointer: "/n" }), "4");
  });

  it("serves item ranges (0-based, end exclusive, clamped to the array)", () => {
    assert.equal(recoverJsonText(value, { jsonPointer: "/items", itemStart: 1, itemEnd: 2 }), '[\n{"id":2}\n]');
    assert.equal(recoverJsonText(value, { jsonPointer: "/items", itemStart: 1, itemEnd: 99 }), '[\n{"id":2},\n{"id":3}\n]');
    assert.equal(recoverJsonText(value, { jsonPointer: "/items", itemStart: 3, itemEnd: 3 }), "[]");
  });

  it("refuses what it cannot serve", () => {
    assert.throws(() => recoverJsonText(value, { jsonPointer: "/missing" }), throwsCode("not_found"));
    assert.throws(() => recoverJsonText(value, { jsonPointer: "/items", itemStart: 2, itemEnd: 1 }), throwsCode("invalid_argument"));
    assert.throws(() => recoverJsonText(value, { jsonPointer: "/items", itemStart: 4 }), throwsCode("invalid_argument"));
    assert.throws(() => recoverJsonText(value, { jsonPointer: "/body", itemStart: 0, itemEnd: 1 }), throwsCode("invalid_argument"));
    assert.throws(() => recoverJsonText(value, { jsonPointer: "", itemStart: 0 }), throwsCode("invalid_argument"));
  });
});
