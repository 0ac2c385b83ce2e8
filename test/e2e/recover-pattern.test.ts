import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { ProjectionService } from "@loupe/proto";
import { freePort, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { textOf } from "../support/recover-omission.js";

const MAX_RESULT_BYTES = 16 * 1024 * 1024;
const counter = createTokenCounter();
const isCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code && !error.message.includes("\n");

describe("Recover by pattern (loupe serve)", () => {
  let dataDir: string;
  let loupe: LoupeProcess;
  let client: GrpcClient<typeof ProjectionService>;
  // A ~3 MB log: an error every 301 lines with a stack line after it.
  const lines = Array.from({ length: 40_000 }, (_, index) =>
    index % 301 === 7
      ? `${String(index + 1)} ERROR request failed: timeout after 30s`
      : index % 301 === 8
        ? `    at handler (src/api.ts:${String(index)})`
        : `${String(index + 1)} INFO served GET /items/${String(index)} in ${String(index % 90)} ms`,
  );
  const log = lines.join("\n") + "\n";
  let resultId = "";
  let hostileId = "";

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "loupe-pattern-"));
    const grpcPort = await freePort();
    loupe = startLoupeProcess(["serve"], {
      LOUPE_DATA_DIR: dataDir,
      LOUPE_GRPC_PORT: String(grpcPort),
      LOUPE_HTTP_PORT: String(await freePort()),
      LOUPE_MAX_RESULT_BYTES: String(MAX_RESULT_BYTES),
    });
    await loupe.waitFor(/loupe is serving/);
    client = createGrpcClient(ProjectionService, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: MAX_RESULT_BYTES * 2 });
    resultId = (await client.project({ sessionId: "p1", result: { toolName: "bash", parts: [{ content: { case: "text", value: log } }] } })).resultId;
    // Long enough to be archived (a result within budget is answered whole and not saved).
    const hostile = Array.from({ length: 3000 }, (_, index) => (index === 2000 ? `${"a".repeat(40)}!` : `line ${String(index + 1)} aaa`)).join("\n");
    hostileId = (await client.project({ sessionId: "p1", result: { toolName: "bash", parts: [{ content: { case: "text", value: hostile } }] } })).resultId;
    assert.ok(resultId !== "" && hostileId !== "", "both results are archived");
  });
  after(async () => {
    client.close();
    await loupe.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it("pages through every match with context, grep style, each page within budget", async () => {
    const expected = lines.flatMap((line, index) => (/ERROR .*timeout/.test(line) ? [index + 1] : []));
    const seen: number[] = [];
    let response = await client.recover({ resultId, pattern: "ERROR .*timeout", contextLines: 1 });
    for (let pages = 1; ; pages++) {
      const text = textOf(response.parts);
      assert.ok(counter.count(text) <= 2000, "within the default budget");
      for (const match of response.matches) {
        assert.equal(match.text, lines[match.line - 1]);
        assert.deepEqual(match.before, [lines[match.line - 2]]);
        assert.deepEqual(match.after, [lines[match.line]]);
        assert.ok(text.includes(`${String(match.line)}:${match.text}\n`), "the match is rendered N:line");
        assert.ok(text.includes(`${String(match.line + 1)}-${lines[match.line] ?? ""}\n`), "context is rendered N-line");
      }
      assert.match(text, /\n--\n/, "non-adjacent groups are separated by --");
      seen.push(...response.matches.map((match) => match.line));
      assert.equal(response.matchCount, seen.length, "match_count counts the matches served so far");
      if (response.nextCursor === "") break;
      assert.ok(pages < 50, "the cursor advances");
      response = await client.recover({ cursor: response.nextCursor });
    }
    assert.deepEqual(seen, expected);
  });

  it("ignores case only when asked with (?i), and says when nothing matches", async () => {
    const none = await client.recover({ resultId, pattern: "error request" });
    assert.equal(none.matchCount, 0);
    assert.equal(none.nextCursor, "");
    assert.match(textOf(none.parts), /^\[loupe\] no line matches/);
    const some = await client.recover({ resultId, pattern: "(?i)error request", budgetTokens: 200 });
    assert.ok(some.matchCount > 0 && some.nextCursor !== "");
  });

  it("refuses malformed patterns and foreign cursors with INVALID_ARGUMENT, other revisions with FAILED_PRECONDITION", async () => {
    await assert.rejects(client.recover({ resultId, pattern: "(unclosed" }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ resultId, pattern: "x".repeat(1001) }), isCode("invalid_argument"));
    const page = await client.recover({ resultId, pattern: "ERROR", budgetTokens: 100 });
    await assert.rejects(client.recover({ resultId: hostileId, cursor: page.nextCursor }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ resultId, pattern: "ERROR", expectedRevision: `sha256:${"0".repeat(64)}` }), isCode("failed_precondition"));
  });

  it("stops a catastrophic pattern at the deadline while other calls stay fast", async () => {
    const started = performance.now();
    const hostile = client.recover({ resultId: hostileId, pattern: "^(a+)+$|line 5\\d aaa" });
    const reads: number[] = [];
    for (let count = 0; count < 10; count++) {
      const readStarted = performance.now();
      const read = await client.recover({ resultId, startLine: 100 + count, endLine: 110 + count });
      reads.push(performance.now() - readStarted);
      assert.equal(read.startLine, 100 + count);
    }
    const answer = await hostile;
    assert.ok(performance.now() - started < 3000, "answered within the 2 s deadline and a little");
    assert.deepEqual(
      answer.matches.map((match) => match.line),
      [50, 51, 52, 53, 54, 55, 56, 57, 58, 59],
    );
    assert.match(textOf(answer.parts), /\[loupe\] searched lines 1–2000 of 3000 within the time limit/);
    assert.ok(Math.max(...reads) < 500, `reads stay fast while the pattern runs (slowest ${Math.max(...reads).toFixed(0)} ms)`);
    // Continuing lands on the hostile line itself: a clean DEADLINE_EXCEEDED, not a hang.
    await assert.rejects(client.recover({ cursor: answer.nextCursor }), isCode("deadline_exceeded"));
  });
});
