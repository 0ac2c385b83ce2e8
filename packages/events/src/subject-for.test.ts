import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { isAppError } from "@loupe/errors";
import { decodeSubjectToken, encodeSubjectToken, subjectFor } from "./subject-for.js";

const NASTY_IDS = [
  "",
  "a",
  "A",
  "abc-DEF_123",
  ".",
  "..",
  "a.b",
  "*",
  ">",
  "a*b>c",
  " ",
  "\t",
  "\n",
  "\r\n",
  "\u0000",
  "a b",
  "~",
  "~~",
  "~2E",
  "%2E",
  "ü",
  "u\u0308",
  "日本語",
  "😀",
  "emoji 😀 mix",
  "\u00a0",
  "\u2028",
  "/path/to\\file",
  "x".repeat(300),
  "sess_01J8Z3T1",
];

/** The characters a token may hold: an independent oracle, not the encoder's own pattern. */
const TOKEN = /^[A-Za-z0-9_~-]+$/;

describe("encodeSubjectToken()", () => {
  it("is injective on a table of nasty ids and leaves no forbidden character", () => {
    const tokens = NASTY_IDS.map(encodeSubjectToken);
    assert.equal(new Set(tokens).size, NASTY_IDS.length);
    for (const token of tokens) {
      assert.match(token, TOKEN);
      assert.doesNotMatch(token, /[.*>\s]/);
    }
  });

  for (const id of NASTY_IDS) {
    it(`round-trips ${JSON.stringify(id.length > 20 ? `${id.slice(0, 20)}…` : id)}`, () => {
      assert.equal(decodeSubjectToken(encodeSubjectToken(id)), id);
    });
  }

  it("keeps safe ids readable and is deterministic", () => {
    assert.equal(encodeSubjectToken("sess_01J8Z3T1"), "sess_01J8Z3T1");
    assert.equal(encodeSubjectToken("a.b"), "a~2Eb");
    assert.equal(encodeSubjectToken(""), "~");
    assert.equal(encodeSubjectToken("ü"), encodeSubjectToken("ü"));
  });

  it("round-trips and stays injective on arbitrary Unicode", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (first, second) => {
        const token = encodeSubjectToken(first);
        assert.match(token, TOKEN);
        assert.equal(decodeSubjectToken(token), first);
        assert.equal(token === encodeSubjectToken(second), first === second);
      }),
    );
  });

  it("refuses a lone surrogate (invalid_argument)", () => {
    assert.throws(
      () => encodeSubjectToken("a\ud800"),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
  });
});

describe("decodeSubjectToken()", () => {
  for (const token of ["", "a.b", "a b", "~4", "~zz", "~2e", "~41", "~FF", "~C3", "ü", "*", ">"]) {
    it(`refuses ${JSON.stringify(token)} (invalid_argument)`, () => {
      assert.throws(
        () => decodeSubjectToken(token),
        (error: unknown) => isAppError(error) && error.code === "invalid_argument",
      );
    });
  }
});

describe("subjectFor()", () => {
  it("builds loupe.<entity>.<event> with one encoded token per id", () => {
    assert.equal(subjectFor("turn", "appended"), "loupe.turn.appended");
    assert.equal(subjectFor("turn", "appended", "local", "s.1 *"), "loupe.turn.appended.local.s~2E1~20~2A");
    assert.equal(subjectFor("result", "projected", "").split(".").length, 4);
  });

  for (const [entity, event] of [
    ["Turn", "appended"],
    ["turn", "a.b"],
    ["", "x"],
    ["turn", "*"],
  ] as const) {
    it(`refuses entity ${JSON.stringify(entity)} / event ${JSON.stringify(event)}`, () => {
      assert.throws(
        () => subjectFor(entity, event),
        (error: unknown) => isAppError(error) && error.code === "invalid_argument",
      );
    });
  }
});
