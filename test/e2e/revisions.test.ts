import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createTokenCounter } from "@loupe/projection";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { textOf } from "../support/recover-omission.js";

const counter = createTokenCounter();

describe("revisions of a path (invariant 7)", () => {
  let loupe: EmbeddedLoupe;
  let client: EmbeddedLoupe["client"];

  before(async () => {
    loupe = await startEmbeddedLoupe();
    client = loupe.client;
  });
  after(() => loupe.stop());

  const read = (content: string, sessionId = "rev") =>
    client.project({
      sessionId,
      result: { toolName: "Read", argsJson: JSON.stringify({ file_path: "src/app.ts" }), parts: [{ content: { case: "text", value: content } }] },
    });

  it("does not take two parts of one file for a change (sed -n ranges), but does a changed part", async () => {
    const part = (range: string, content: string) =>
      client.project({
        sessionId: "parts",
        result: {
          toolName: "bash",
          argsJson: JSON.stringify({ command: `sed -n '${range}p' src/parser.ts` }),
          parts: [{ content: { case: "text", value: content } }],
        },
      });
    const lines = (from: number) => Array.from({ length: 400 }, (_, index) => `const line${String(from + index)} = ${String(from + index)};\n`).join("");
    const first = await part("1,400", lines(1));
    const other = await part("401,800", lines(401));
    assert.equal(textOf(other.parts).includes("changed since your last read"), false);
    assert.equal(
      (await client.recover({ resultId: first.resultId, startLine: 1, endLine: 2 })).stale,
      false,
      "a read of another part does not make the first stale",
    );
    const changed = await part("401,800", lines(401).replace("= 401;", "= 40100;"));
    assert.equal(textOf(changed.parts).startsWith("[loupe] src/parser.ts changed since your last read"), true, textOf(changed.parts).slice(0, 300));
    const old = await client.recover({ resultId: other.resultId, startLine: 1, endLine: 2 });
    assert.equal(old.stale, true, "a changed read of the same part does");
    assert.equal(old.newerResultId, changed.resultId);
    assert.equal(
      (await client.recover({ resultId: first.resultId, startLine: 1, endLine: 2 })).stale,
      false,
      "the other part's change says nothing about this one",
    );
    // Each part keeps its own latest revision: reading the first part again does not hide the second's history.
    await part("1,400", lines(1));
    assert.equal((await client.recover({ resultId: other.resultId, startLine: 1, endLine: 2 })).stale, true, "still stale after a read of another part");
    const third = await part("401,800", lines(401).replace("= 402;", "= 40200;"));
    assert.equal(
      textOf(third.parts).startsWith("[loupe] src/parser.ts changed since your last read"),
      true,
      "a change of the part is noticed after a read of another part",
    );
  });

  it("says when a file changed since the session last read it, marks the old snapshot stale, and never joins versions", async () => {
    const v1 = numberedLines(3000, "v1");
    const v2 = numberedLines(3000, "v2");
    const first = await read(v1);
    assert.equal(textOf(first.parts).includes("changed since your last read"), false);
    const second = await read(v2);
    const notice = second.parts[0]?.content.case === "text" ? second.parts[0].content.value : "";
    assert.equal(notice, `[loupe] src/app.ts changed since your last read; your earlier read is ${first.resultId}\n`);
    assert.ok(counter.count(textOf(second.parts)) <= 2000, "the notice counts against the budget");

    const old = await client.recover({ resultId: first.resultId, startLine: 10, endLine: 12 });
    assert.equal(old.stale, true);
    assert.equal(old.newerResultId, second.resultId);
    assert.equal(old.revision, first.revision, "the old snapshot is served, labelled with its revision");
    assert.match(textOf(old.parts), /^v1 00010/);
    const current = await client.recover({ resultId: second.resultId, startLine: 10, endLine: 12 });
    assert.equal(current.stale, false);

    await assert.rejects(
      client.recover({ resultId: first.resultId, startLine: 1, endLine: 2, expectedRevision: second.revision }),
      (error: unknown) =>
        isAppError(error) && error.code === "failed_precondition" && error.message.includes(first.revision) && error.message.includes(second.revision),
    );
    const again = await read(v2);
    assert.equal(textOf(again.parts).includes("changed since your last read"), false, "reading the same content again is no change");
    assert.equal(
      (await read(v1, "another-session")).parts.some((part) => part.content.case === "text" && part.content.value.includes("changed")),
      false,
      "sessions are separate",
    );
  });
});
