import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { RecoverRequestSchema, RecoverResponseSchema } from "@loupe/proto";
import { recoverAll, recoverRequestFrom } from "./recover-all.js";

const ORIGINAL = "one\ntwo\nthree\nfour\nfive\n";

/** Serves ORIGINAL two lines per page with a cursor holding the next line index. */
function pagedRecover(): {
  recover: (request: MessageInitShape<typeof RecoverRequestSchema>) => Promise<ReturnType<typeof create<typeof RecoverResponseSchema>>>;
  requests: Array<MessageInitShape<typeof RecoverRequestSchema>>;
} {
  const lines = ORIGINAL.split(/(?<=\n)/);
  const requests: Array<MessageInitShape<typeof RecoverRequestSchema>> = [];
  return {
    requests,
    recover: async (request) => {
      requests.push(request);
      const start = request.cursor ? Number(request.cursor) : (request.startLine ?? 1) - 1;
      const end = Math.min(start + 2, request.endLine ?? lines.length);
      const nextCursor = end < (request.cursor ? lines.length : (request.endLine ?? lines.length)) ? String(end) : "";
      return create(RecoverResponseSchema, { resultId: "r_1", parts: [{ content: { case: "text", value: lines.slice(start, end).join("") } }], nextCursor });
    },
  };
}

describe("recoverRequestFrom()", () => {
  it("parses a continuation_json with snake_case names as it is", () => {
    assert.deepEqual(
      recoverRequestFrom('{"result_id":"r_1","start_line":2,"end_line":4,"budget_tokens":10}'),
      create(RecoverRequestSchema, { resultId: "r_1", startLine: 2, endLine: 4, budgetTokens: 10 }),
    );
  });

  it("refuses JSON that is not a recover request", () => {
    assert.throws(() => recoverRequestFrom('{"nope":1}'), { code: "invalid_argument" });
    assert.throws(() => recoverRequestFrom("not json"), { code: "invalid_argument" });
  });
});

describe("recoverAll()", () => {
  it("follows next_cursor to the end and joins the pages exactly", async () => {
    const { recover, requests } = pagedRecover();
    assert.equal(await recoverAll(recover, '{"result_id":"r_1","start_line":1,"end_line":5,"budget_tokens":7}'), ORIGINAL);
    assert.deepEqual(
      requests.slice(1).map((request) => [request.resultId, request.cursor, request.budgetTokens]),
      [
        ["r_1", "2", 7],
        ["r_1", "4", 7],
      ],
    );
  });

  it("fails when a cursor repeats", async () => {
    const stuck = async () => create(RecoverResponseSchema, { resultId: "r_1", parts: [{ content: { case: "text", value: "x" } }], nextCursor: "same" });
    await assert.rejects(recoverAll(stuck, { resultId: "r_1" }), { code: "internal" });
  });
});
