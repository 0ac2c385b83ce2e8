import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { collapseRedraws, hasRedraws } from "./collapse-redraws.js";

describe("collapseRedraws()", () => {
  const cases: Array<[string, string]> = [
    ["  0%\r 50%\r100% done\n", "100% done\n"],
    ["\r 10%\r 20%\r", " 20%"],
    ["a\rb\r\n", "b\r\n"],
    ["a\r\r\r\n", "a\r\n"],
    ["plain\n", "plain\n"],
    ["crlf\r\n", "crlf\r\n"],
    ["\r", "\r"],
    ["\r\r\n", "\r\r\n"],
    ["x\r\u{1F600}\n", "\u{1F600}\n"],
  ];
  for (const [line, shown] of cases) {
    it(`shows ${JSON.stringify(line)} as ${JSON.stringify(shown)}`, () => assert.equal(collapseRedraws(line), shown));
  }

  it("tells redraws from a CRLF terminator", () => {
    assert.equal(hasRedraws("a\r\n"), false);
    assert.equal(hasRedraws("a\rb\n"), true);
    assert.equal(hasRedraws("a\r"), true);
    assert.equal(hasRedraws("a\n"), false);
  });
});
