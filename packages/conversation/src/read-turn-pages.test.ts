import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readTurnPages, type TurnPageRequest } from "./read-turn-pages.js";
import { encodeTurnJson } from "./turn-json.js";
import { userTurn } from "./testing/turn-builders.js";

describe("readTurnPages()", () => {
  it("follows nextSeq page by page, decodes the turns in order and asks for the prefix on the first page only", async () => {
    const turns = [1, 2, 3, 4, 5].map((seq) => userTurn(seq, `turn ${String(seq)}`));
    const requests: TurnPageRequest[] = [];
    const read = await readTurnPages(
      async (request) => {
        requests.push(request);
        const page = turns.filter((turn) => turn.seq >= request.startSeq).slice(0, 2);
        const next = page.at(-1)!.seq + 1;
        return {
          turns: page.map((turn) => ({ turnJson: encodeTurnJson(turn) })),
          nextSeq: next > 5 ? 0 : next,
          lastSeq: 5,
          systemPrompt: request.systemHash ? "sys" : "",
          toolsJson: "",
        };
      },
      { startSeq: 0, endSeq: 0, systemHash: "h1" },
    );
    assert.deepEqual(read.turns, turns);
    assert.equal(read.lastSeq, 5);
    assert.equal(read.systemPrompt, "sys", "the first page's prefix");
    assert.deepEqual(
      requests.map((request) => [request.startSeq, request.systemHash]),
      [
        [1, "h1"],
        [3, undefined],
        [5, undefined],
      ],
    );
  });
});
