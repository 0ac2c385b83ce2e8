import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { blobKey, lineIndexKey, recordKey, tenantPrefix } from "./archive-keys.js";
import { decodeKeySegment, encodeKeySegment } from "./encode-key-segment.js";

const SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

const NASTY_IDS = [
  "",
  "_",
  "__",
  "_2E",
  ".",
  "..",
  "...",
  "a.b",
  "a_2Eb",
  "*",
  ">",
  "a>b",
  "/",
  "a/b",
  "../../etc/passwd",
  " ",
  "a b",
  "a:b",
  "loupe:local:x",
  "A",
  "a",
  "local",
  "-",
  "é",
  "e\u0301",
  "日本",
  "🙂",
  "\u0000",
  "\n",
  "\ud800",
  "\udfff",
  "\ufffd",
  "_u",
  "_uD800",
  "%2E",
  "%",
  "\\",
  "CON",
  "x".repeat(300),
];

describe("encodeKeySegment()", () => {
  it("is injective on a table of nasty ids", () => {
    const encoded = NASTY_IDS.map(encodeKeySegment);
    assert.equal(new Set(encoded).size, NASTY_IDS.length);
  });

  it("leaves no forbidden character and never an empty segment", () => {
    for (const id of NASTY_IDS) {
      const encoded = encodeKeySegment(id);
      assert.match(encoded, /^[A-Za-z0-9_-]+$/, JSON.stringify(id));
    }
  });

  it("is deterministic and reversible", () => {
    for (const id of NASTY_IDS) {
      assert.equal(encodeKeySegment(id), encodeKeySegment(id));
      assert.equal(decodeKeySegment(encodeKeySegment(id)), id);
    }
  });

  for (const [id, expected] of [
    ["local", "local"],
    ["Team-7", "Team-7"],
    ["", "_"],
    ["a.b", "a_2Eb"],
    ["a_b", "a_5Fb"],
    ["é", "_C3_A9"],
    ["\ud800", "_uD800"],
  ] as const) {
    it(`encodes ${JSON.stringify(id)} as ${expected}`, () => assert.equal(encodeKeySegment(id), expected));
  }

  for (const bad of ["a.b", "_2", "_zz", "_2e", "_uD80", "_C3", "a_", "_u0041"]) {
    it(`refuses to decode ${JSON.stringify(bad)}`, () => {
      assert.throws(() => decodeKeySegment(bad), (error) => isAppError(error) && error.code === "invalid_argument");
    });
  }
});

describe("key builders", () => {
  it("build the documented layout", () => {
    assert.equal(tenantPrefix("local"), "v1/local/");
    assert.equal(blobKey("local", SHA), `v1/local/blobs/${SHA}`);
    assert.equal(lineIndexKey("local", SHA), `v1/local/blobs/${SHA}.lines`);
    assert.equal(recordKey("local", "r_abc"), "v1/local/results/r_5Fabc.json");
  });

  it("encode tenant and result ids, so no id can escape its place", () => {
    assert.equal(tenantPrefix("../x"), "v1/_2E_2E_2Fx/");
    assert.equal(recordKey("a/b", "../c"), "v1/a_2Fb/results/_2E_2E_2Fc.json");
    const keys = NASTY_IDS.map((id) => recordKey(id, id));
    assert.equal(new Set(keys).size, NASTY_IDS.length);
    for (const key of keys) assert.match(key, /^v1\/[A-Za-z0-9_-]+\/results\/[A-Za-z0-9_-]+\.json$/);
  });

  it("keep every tenant's keys under its own prefix", () => {
    for (const tenant of NASTY_IDS) {
      assert.ok(blobKey(tenant, SHA).startsWith(tenantPrefix(tenant)));
      for (const other of NASTY_IDS) {
        if (other !== tenant) assert.ok(!recordKey(other, "r").startsWith(tenantPrefix(tenant)), `${tenant} / ${other}`);
      }
    }
  });

  for (const digest of ["", SHA.toUpperCase(), `sha256:${SHA}`, SHA.slice(1), `${SHA}0`, `${SHA.slice(0, 63)}g`]) {
    it(`refuses the digest ${JSON.stringify(digest.slice(0, 12))}…`, () => {
      assert.throws(() => blobKey("local", digest), (error) => isAppError(error) && error.code === "invalid_argument");
      assert.throws(() => lineIndexKey("local", digest), (error) => isAppError(error) && error.code === "invalid_argument");
    });
  }
});
