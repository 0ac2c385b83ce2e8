import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { canonicalBytes, canonicalContent, canonicalTextOf, createRevisionHasher, revisionOf, type CanonicalPart } from "./revision-of.js";

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

describe("canonicalTextOf()", () => {
  it("is the request's own string for one well-formed text part (no copy made)", () => {
    const text = "x".repeat(100_000);
    assert.equal(canonicalTextOf([{ text }]), text);
    assert.equal(canonicalTextOf([{ text: "a" }, { media: 1 }, { json: "1" }]), "a\n1");
  });

  for (const [name, parts] of [
    ["a lone high surrogate", [{ text: "a\uD800b" }]],
    ["a lone low surrogate in a later part", [{ text: "a" }, { json: "\uDC00" }]],
    ["a leading byte-order mark (TextDecoder drops it)", [{ text: "\uFEFFabc" }]],
  ] as const) {
    it(`leaves ${name} to the decoder`, () => {
      assert.equal(canonicalTextOf(parts), undefined);
    });
  }

  it("keeps a byte-order mark that does not lead the text", () => {
    assert.equal(canonicalTextOf([{ text: "" }, { text: "\uFEFF" }]), "\n\uFEFF");
    assert.equal(canonicalTextOf([{ text: "a\uFEFF" }]), "a\uFEFF");
  });

  it("gives canonicalContent the text its bytes decode to, for canonical and other parts", () => {
    for (const parts of [[{ text: "ok" }], [{ text: "a\uD800" }, { json: "1" }], [{ text: "\uFEFFx" }]] as const) {
      const { bytes, text } = canonicalContent(parts);
      assert.deepEqual(bytes, canonicalBytes(parts));
      assert.equal(text, decoder.decode(bytes));
    }
  });

  it("equals the decoded canonical bytes whenever it answers, for any parts", () => {
    const part: fc.Arbitrary<CanonicalPart> = fc.oneof(
      fc.string({ unit: "binary" }).map((text) => ({ text })),
      fc.string({ unit: fc.constantFrom("a", "\n", "\uFEFF", "\uD83D", "\uDE42", "é", "\u0000") }).map((text) => ({ text })),
      fc.string().map((json) => ({ json })),
      fc.constant({ media: 1 }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        const decoded = decoder.decode(canonicalBytes(parts));
        const text = canonicalTextOf(parts);
        // Undefined (decode instead) only when the decoder would change the joined text.
        const joined = parts.flatMap((p) => ("text" in p ? [p.text] : "json" in p ? [p.json] : [])).join("\n");
        return text === undefined ? decoded !== joined : text === decoded;
      }),
      { numRuns: 2000 },
    );
  });
});
