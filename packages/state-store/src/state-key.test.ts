import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { isAppError } from "@loupe/errors";
import { parseStateKey, stateKey, stateKeyPrefix } from "./state-key.js";

describe("stateKey()", () => {
  for (const [segments, expected] of [
    [["local", "rules", "my-app"], "loupe:local:rules:my-app"],
    [["local", "notes", "s1", "rev_2.0~x"], "loupe:local:notes:s1:rev_2.0~x"],
    [["local", "notes", "a:b"], "loupe:local:notes:a%3Ab"],
    [["local", "notes", "a*b?[c]"], "loupe:local:notes:a%2Ab%3F%5Bc%5D"],
    [["local", "notes", " tab\there\n"], "loupe:local:notes:%20tab%09here%0A"],
    [["local", "notes", "100%"], "loupe:local:notes:100%25"],
    [["local", "notes", "é"], "loupe:local:notes:%C3%A9"],
    [["team one", "marks", ""], "loupe:team%20one:marks:"],
  ] as const) {
    it(`${JSON.stringify(segments)} → ${expected}`, () => {
      const [tenant, entity, ...ids] = segments;
      assert.equal(stateKey(tenant, entity, ...ids), expected);
    });
  }

  it("round-trips through parseStateKey() and never lets ':', '*' or whitespace through", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string(), fc.array(fc.string({ unit: "grapheme" }), { maxLength: 4 }), (tenant, entity, ids) => {
        const key = stateKey(tenant, entity, ...ids);
        assert.deepEqual(parseStateKey(key), { tenant, entity, ids });
        assert.equal(key.split(":").length, 3 + ids.length);
        assert.doesNotMatch(key.slice("loupe:".length), /[*\s]/);
      }),
    );
  });

  it("is injective: different segments give different keys", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 2, maxLength: 4 }), fc.array(fc.string(), { minLength: 2, maxLength: 4 }), (left, right) => {
        fc.pre(JSON.stringify(left) !== JSON.stringify(right));
        const [leftTenant = "", leftEntity = "", ...leftIds] = left;
        const [rightTenant = "", rightEntity = "", ...rightIds] = right;
        assert.notEqual(stateKey(leftTenant, leftEntity, ...leftIds), stateKey(rightTenant, rightEntity, ...rightIds));
      }),
    );
  });

  it("rejects a lone surrogate, which has no reversible encoding", () => {
    assert.throws(
      () => stateKey("local", "notes", "\uD800"),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
  });
});

describe("stateKeyPrefix()", () => {
  it("prefixes the keys under its segments and no others", () => {
    const prefix = stateKeyPrefix("local", "notes");
    assert.equal(prefix, "loupe:local:notes:");
    assert.ok(stateKey("local", "notes", "s").startsWith(prefix));
    assert.ok(!stateKey("local", "notes2", "s").startsWith(prefix));
    assert.ok(stateKey("local", "notes", "a b", "c").startsWith(stateKeyPrefix("local", "notes", "a b")));
  });
});

describe("parseStateKey()", () => {
  for (const key of ["other:local:notes", "loupe:local", "loupe:local:notes:%zz", "loupe:local:notes:%3a", "loupe:local:notes:a%2Ab*"]) {
    it(`rejects ${key}`, () => {
      assert.throws(
        () => parseStateKey(key),
        (error: unknown) => isAppError(error) && error.code === "invalid_argument",
      );
    });
  }
});
