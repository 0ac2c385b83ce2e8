import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import {
  blobKey,
  blobRefKey,
  blobRefPrefix,
  expiryEntryKey,
  expiryPrefix,
  lineIndexKey,
  parseExpiryEntryKey,
  recordKey,
  resultIdFromKey,
  sessionEntryKey,
  sessionPrefix,
  tenantFromFolder,
  tenantMarkerKey,
  tenantPrefix,
  TENANTS_PREFIX,
  turnLogPrefix,
  turnsPrefix,
  turnKey,
  seqFromTurnKey,
  sessionContextKey,
} from "./archive-keys.js";
import { assertValidKey, assertValidPrefix } from "./key-rules.js";
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
      assert.throws(
        () => decodeKeySegment(bad),
        (error) => isAppError(error) && error.code === "invalid_argument",
      );
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
      assert.throws(
        () => blobKey("local", digest),
        (error) => isAppError(error) && error.code === "invalid_argument",
      );
      assert.throws(
        () => lineIndexKey("local", digest),
        (error) => isAppError(error) && error.code === "invalid_argument",
      );
    });
  }
});

describe("index keys", () => {
  it("build the documented layout", () => {
    assert.equal(sessionEntryKey("local", "s-1", "r_abc"), "v1/local/sessions/s-1/r_5Fabc");
    assert.equal(blobRefKey("local", SHA, "r_abc"), `v1/local/refs/${SHA}/r_5Fabc`);
    assert.equal(expiryEntryKey("local", 1_700_000_000_000, "r_abc"), "v1/local/expiries/001700000000000-r_5Fabc");
    assert.equal(tenantMarkerKey("local"), "v1/_tenants/local");
  });

  it("round-trip the ids they hold, for nasty ids", () => {
    for (const id of NASTY_IDS) {
      assert.equal(resultIdFromKey(sessionEntryKey("local", id, id)), id);
      assert.equal(resultIdFromKey(blobRefKey("local", SHA, id)), id);
      assert.deepEqual(parseExpiryEntryKey(expiryPrefix(id), expiryEntryKey(id, 42, id)), { expiresAtMs: 42, resultId: id });
      assert.equal(tenantFromFolder(tenantPrefix(id)), id);
    }
  });

  it("produce keys and prefixes every adapter accepts, sessions included", () => {
    for (const id of NASTY_IDS) {
      assertValidKey(sessionEntryKey(id, "🙂".repeat(256), id));
      for (const key of [sessionEntryKey(id, id, id), blobRefKey(id, SHA, id), expiryEntryKey(id, 0, id), tenantMarkerKey(id)]) assertValidKey(key);
      for (const prefix of [sessionPrefix(id, id), blobRefPrefix(id, SHA), expiryPrefix(id), TENANTS_PREFIX]) assertValidPrefix(prefix);
    }
  });

  it("keep distinct sessions apart, long ones hashed", () => {
    const sessions = [...NASTY_IDS, "🙂".repeat(256), `${"🙂".repeat(255)}🙃`];
    const prefixes = sessions.map((id) => sessionPrefix("local", id));
    assert.equal(new Set(prefixes).size, sessions.length);
    for (const a of prefixes) for (const b of prefixes) if (a !== b) assert.ok(!a.startsWith(b), `${a} / ${b}`);
    assert.match(sessionPrefix("local", "🙂".repeat(256)), /^v1\/local\/sessions\/_h[0-9a-f]{64}\/$/);
  });

  it("sort expiry entries by time", () => {
    const keys = [5, 1_000, 99, 1_700_000_000_000].map((ms) => expiryEntryKey("local", ms, "r"));
    assert.deepEqual(
      [...keys].sort(),
      [5, 99, 1_000, 1_700_000_000_000].map((ms) => expiryEntryKey("local", ms, "r")),
    );
  });

  it("never overlap a tenant's prefix with the earlier tenant markers", () => {
    const markers = tenantMarkerKey("t").slice(0, -"t".length);
    for (const id of NASTY_IDS) assert.ok(!tenantPrefix(id).startsWith(markers) && !markers.startsWith(tenantPrefix(id)));
  });

  it("name a tenant by its folder, and no tenant by any other folder", () => {
    assert.equal(tenantFromFolder("v1/local/"), "local");
    assert.equal(tenantFromFolder("v1/_/"), "");
    for (const other of ["v1/_tenants/", "v1/local", "v2/local/", "v1/a/b/", "v1/a.b/", "v1/_ZZ/", "local/"])
      assert.equal(tenantFromFolder(other), undefined, other);
  });

  for (const bad of [-1, 1.5, 10 ** 15, Number.NaN]) {
    it(`refuses the expiry time ${String(bad)}`, () => {
      assert.throws(
        () => expiryEntryKey("local", bad, "r"),
        (error) => isAppError(error) && error.code === "invalid_argument",
      );
    });
  }

  it("refuses to parse a key that is not an expiry entry", () => {
    for (const key of ["v1/local/expiries/12-r", "v1/other/expiries/001700000000000-r", "v1/local/expiries/00170000000000x-r"]) {
      assert.throws(
        () => parseExpiryEntryKey(expiryPrefix("local"), key),
        (error) => isAppError(error) && error.code === "invalid_argument",
      );
    }
  });
});

describe("turn log keys", () => {
  it("sort by seq, round-trip the seq and stay valid keys for hostile session ids", () => {
    for (const session of NASTY_IDS) {
      const keys = [1, 2, 10, 99, 4294967295].map((seq) => turnKey("t1", session, seq));
      for (const key of keys) assertValidKey(key);
      assert.deepEqual([...keys].sort(), keys);
      assert.deepEqual(keys.map(seqFromTurnKey), [1, 2, 10, 99, 4294967295]);
      assert.ok(keys.every((key) => key.startsWith(turnsPrefix("t1", session))));
      assert.ok(turnsPrefix("t1", session).startsWith(turnLogPrefix("t1", session)));
      assertValidKey(sessionContextKey("t1", session, SHA));
    }
  });

  it("keep sessions and tenants apart and refuse bad seqs", () => {
    assert.notEqual(turnsPrefix("t1", "a"), turnsPrefix("t2", "a"));
    assert.ok(!turnsPrefix("t1", "a/b").startsWith(turnsPrefix("t1", "a")));
    assert.ok(!turnLogPrefix("t1", "x").startsWith(sessionPrefix("t1", "x")));
    for (const seq of [0, -1, 1.5, 2 ** 32])
      assert.throws(
        () => turnKey("t1", "s", seq),
        (error) => isAppError(error) && error.code === "invalid_argument",
      );
    assert.equal(seqFromTurnKey(recordKey("t1", "r")), undefined);
  });
});
