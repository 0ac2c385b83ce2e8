import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalBytes, createRevisionHasher, revisionOf } from "./revision-of.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// FIPS 180-2 / NIST test vectors.
const VECTORS = [
  ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
  ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
  ["abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
  ["a".repeat(1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"],
] as const;

describe("revisionOf()", () => {
  for (const [input, hex] of VECTORS) {
    it(`hashes a ${String(input.length)}-character input to the known digest`, () => {
      assert.equal(revisionOf(encoder.encode(input)), `sha256:${hex}`);
    });
  }
});

describe("createRevisionHasher()", () => {
  for (const [input, hex] of VECTORS) {
    it(`matches revisionOf in chunks for a ${String(input.length)}-character input`, () => {
      const hasher = createRevisionHasher();
      const bytes = encoder.encode(input);
      for (let offset = 0; offset < bytes.byteLength; offset += 4093) hasher.update(bytes.subarray(offset, offset + 4093));
      assert.equal(hasher.digest(), `sha256:${hex}`);
    });
  }
});

describe("canonicalBytes()", () => {
  for (const [name, parts, expected] of [
    ["no parts", [], ""],
    ["one text part", [{ text: "hello" }], "hello"],
    ["text and json joined with a newline", [{ text: "a" }, { json: '{"b":1}' }], 'a\n{"b":1}'],
    ["media left out without a separator", [{ text: "a" }, { media: { data: "x" } }, { text: "b" }], "a\nb"],
    ["only media", [{ media: 1 }, { media: 2 }], ""],
    ["empty text parts still separated", [{ text: "" }, { text: "" }], "\n"],
    ["trailing newlines kept", [{ text: "a\n" }, { text: "b\n" }], "a\n\nb\n"],
    ["non-ASCII as UTF-8", [{ text: "é" }, { text: "🙂" }], "é\n🙂"],
  ] as const) {
    it(name, () => assert.equal(decoder.decode(canonicalBytes(parts)), expected));
  }

  it("encodes UTF-8 bytes exactly", () => {
    assert.deepEqual([...canonicalBytes([{ text: "é" }, { json: "1" }])], [0xc3, 0xa9, 0x0a, 0x31]);
  });

  it("gives the revision of the joined text", () => {
    assert.equal(revisionOf(canonicalBytes([{ text: "ab" }, { media: null }, { text: "c" }])), revisionOf(encoder.encode("ab\nc")));
    assert.equal(revisionOf(canonicalBytes([{ text: "" }])), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
