import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTokenCounter, MAX_VIEW_BYTES, projectResult } from "@loupe/projection";
import { coreResultInput } from "./core-policy.js";
import { isLoupeView } from "./loupe-view.js";
import { fixtureRow } from "./testing/fixture-rows.js";

describe("isLoupeView()", () => {
  it("knows a first view Loupe made, and not the output it was made from", () => {
    const output = Array.from({ length: 2000 }, (_, index) => `line ${String(index)} of a long build log`).join("\n");
    const row = fixtureRow(1, output, "", { args: { command: "make" } });
    const view = projectResult(coreResultInput(row, output), {
      budgetTokens: 400,
      maxViewBytes: MAX_VIEW_BYTES,
      counter: createTokenCounter(),
      resultId: "r_0123456789abcdefghijABCDEFGHIJ_-",
      view: "",
    });
    assert.equal(isLoupeView(view.text), true, view.text.slice(0, 300));
    assert.equal(isLoupeView(output), false);
  });

  it("knows the history cut's notice, and not a mention of Loupe inside a line", () => {
    assert.equal(isLoupeView("head\n[loupe: 1,200 lines cut (48,000 characters); …]\ntail"), true);
    assert.equal(isLoupeView("see [loupe] in the docs"), false);
  });
});
