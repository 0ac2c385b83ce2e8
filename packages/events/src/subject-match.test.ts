import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { filtersOverlap, isValidFilter, isValidSubject, subjectMatches } from "./subject-match.js";

describe("subjectMatches()", () => {
  const table: [string, string, boolean][] = [
    ["loupe.>", "loupe.turn.appended", true],
    ["loupe.>", "loupe", false],
    ["loupe.*", "loupe.turn", true],
    ["loupe.*", "loupe.turn.appended", false],
    ["loupe.*.appended", "loupe.turn.appended", true],
    ["loupe.turn.appended", "loupe.turn.appended", true],
    ["loupe.turn", "loupe.turn.appended", false],
    [">", "a", true],
  ];
  for (const [filter, subject, expected] of table) {
    it(`${filter} ${expected ? "matches" : "does not match"} ${subject}`, () => assert.equal(subjectMatches(filter, subject), expected));
  }
});

describe("filtersOverlap()", () => {
  const table: [string, string, boolean][] = [
    ["loupe.>", "loupe.turn.>", true],
    ["loupe.turn.*", "loupe.*.appended", true],
    ["loupe.turn.*", "loupe.result.*", false],
    ["a.b", "a.b.c", false],
    ["a.*", "a.>", true],
  ];
  for (const [first, second, expected] of table) {
    it(`${first} / ${second} → ${String(expected)}`, () => {
      assert.equal(filtersOverlap(first, second), expected);
      assert.equal(filtersOverlap(second, first), expected);
    });
  }
});

describe("isValidSubject() / isValidFilter()", () => {
  it("accepts and refuses like a NATS server", () => {
    assert.equal(isValidSubject("loupe.turn.appended"), true);
    for (const bad of ["", "a..b", ".a", "a.", "a b", "a.*", "a.>", "a\tb", "a.b*"]) assert.equal(isValidSubject(bad), false, bad);
    assert.equal(isValidFilter("loupe.*.x.>"), true);
    for (const bad of ["", "a.>.b", "a..b", "a b", "a.b>"]) assert.equal(isValidFilter(bad), false, bad);
  });
});
