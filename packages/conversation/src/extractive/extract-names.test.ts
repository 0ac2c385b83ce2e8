import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { assistantTurn, userTurn } from "../testing/turn-builders.js";
import { emptyExtractiveState, LIMITS } from "./extractive-state.js";
import { addNames, namesOf } from "./extract-names.js";
import { foldTurns } from "./fold-turns.js";
import { renderNote } from "./render-note.js";

describe("namesOf()", () => {
  it("finds snake_case, camelCase and PascalCase names once each, in order, and no plain words", () => {
    assert.deepEqual(
      namesOf("Now _cstack calls separability_matrix; ValueError from parseArgs, then _cstack again. Linear1D is fine, Model and test are words."),
      ["_cstack", "separability_matrix", "ValueError", "parseArgs"],
    );
  });

  it("skips a word right after a backslash, and names too short or too long", () => {
    assert.deepEqual(namesOf('print("\\nLooking at it")\nab_c a_b ' + "x_".repeat(50)), ["ab_c"]);
  });
});

describe("addNames()", () => {
  it("counts a name once per turn and keeps the most used when over the bound", () => {
    const state = emptyExtractiveState();
    addNames(state, ["load_block", "load_block"], 2);
    addNames(state, ["load_block"], 4);
    assert.deepEqual(state.names, [{ name: "load_block", count: 2, seq: 4 }]);
    for (let index = 0; index < LIMITS.names + 5; index++) addNames(state, [`name_${String(index)}`], 10 + index);
    assert.equal(state.names.length, LIMITS.names);
    assert.equal(state.names[0]?.name, "load_block", "the most used stays");
    assert.ok(!state.names.some((fact) => fact.name === "name_0"), "the least used and least recent goes");
  });

  it("gives the same names however the turns are batched", () => {
    const word = fc.constantFrom("load_block", "parseArgs", "ValueError", "_cstack", "read_all", "maxDepth", "plain", "words");
    const turnText = fc.array(word, { maxLength: 12 }).map((words) => words.join(" "));
    fc.assert(
      fc.property(fc.array(turnText, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 29 }), (texts, cut) => {
        const turns = [userTurn(1, "task"), ...texts.map((text, index) => assistantTurn(index + 2, text))];
        const at = Math.min(cut, turns.length);
        assert.deepEqual(foldTurns(foldTurns(undefined, turns.slice(0, at)), turns.slice(at)).names, foldTurns(undefined, turns).names);
      }),
    );
  });
});

describe("the note's names in play", () => {
  it("lists the names the agent used, one line per turn that last used them, most recent first", () => {
    const state = foldTurns(undefined, [
      userTurn(1, "Fix the reader."),
      assistantTurn(2, "load_block raises BufferTooSmall."),
      assistantTurn(4, "Patch load_block and read_header."),
    ]);
    const note = renderNote(state, 4, 4000);
    assert.match(note, /## Names in play\n- load_block, read_header \(turn:4\)\n- BufferTooSmall \(turn:2\)\n/);
  });
});
