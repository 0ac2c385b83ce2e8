import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createLoupeClient, projectAnthropicMessages, recoverRequestFrom, type AnthropicMessage, type LoupeClient } from "@loupe/client";
import { CompactPath, HistoryFormat } from "@loupe/proto";
import { isAppError } from "@loupe/errors";
import { freePort, startLoupeProcess } from "@loupe/testing";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { linesOf, textOf } from "../support/recover-omission.js";

const isCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;

describe("@loupe/client against embedded Loupe", () => {
  let loupe: EmbeddedLoupe;
  let client: LoupeClient;
  before(async () => {
    loupe = await startEmbeddedLoupe();
    client = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}` });
  });
  after(async () => {
    client.close();
    await loupe.stop();
  });

  const original = numberedLines(5000, "sdk");

  it("projects a long text, and recoverAll of each omission's continuation_json gives back exactly the omitted lines", async () => {
    const response = await client.project({
      sessionId: "sdk-1",
      result: { toolUseId: "toolu_1", toolName: "bash", parts: [{ content: { case: "text", value: original } }] },
    });
    assert.ok(response.resultId !== "" && response.archived);
    assert.ok(response.omissions.length > 0, "a 5,000-line text is cut");
    for (const omission of response.omissions) {
      assert.ok(omission.startLine !== undefined && omission.endLine !== undefined);
      const expected = linesOf(original, omission.startLine, omission.endLine);
      assert.equal(await client.recoverAll(omission.continuationJson), expected, `lines ${String(omission.startLine)}-${String(omission.endLine)}`);
      // A small budget splits the range into pages: recoverAll follows next_cursor and joins them exactly.
      const paged = { ...recoverRequestFrom(omission.continuationJson), budgetTokens: 300 };
      assert.equal(await client.recoverAll(paged), expected);
    }
  });

  it("views and recovers a result that is not well-formed UTF-16 as its saved bytes decode: the same view twice, every omitted line back (invariants 1, 3)", async () => {
    // A leading byte-order mark and lone surrogates, one in the head the view keeps and one in the middle it omits.
    const lines = numberedLines(3000, "nc").split("\n");
    lines[2] = `${lines[2] ?? ""} \uD800 in the head`;
    lines[1500] = `${lines[1500] ?? ""} \uDC00 in the middle`;
    const sent = `\uFEFF${lines.join("\n")}`;
    const saved = new TextDecoder().decode(new TextEncoder().encode(sent));
    const request = { sessionId: "sdk-nc", result: { toolName: "bash", parts: [{ content: { case: "text" as const, value: sent } }] } };
    const first = await client.project(request);
    const again = await client.project(request);
    assert.ok(first.resultId !== "" && first.archived && first.omissions.length > 0);
    assert.equal(again.resultId, first.resultId);
    assert.equal(textOf(again.parts), textOf(first.parts), "the same bytes for the same result");
    assert.ok(textOf(first.parts).includes("\uFFFD in the head"), "the head's lone surrogate as the saved bytes hold it");
    assert.ok(textOf(first.parts).includes("\nnc 00001:"), "the first line as the saved bytes decode (TextDecoder drops the byte-order mark)");
    const middle = first.omissions.find((omission) => (omission.startLine ?? 0) <= 1501 && 1501 <= (omission.endLine ?? 0));
    assert.ok(middle !== undefined, "the middle line is omitted");
    for (const omission of first.omissions) {
      assert.equal(await client.recoverAll(omission.continuationJson), linesOf(saved, omission.startLine ?? 0, omission.endLine ?? 0));
    }
  });

  it("a Python file read whose view passes its long docstrings over: the same view twice, the docstrings omitted and every omitted line back (invariants 1, 3, 4)", async () => {
    // A module docstring, then documented functions: the view's head passes the docstrings over to reach code.
    const doc = (indent: string, name: string): string[] => [
      `${indent}"""${name}.`,
      ...Array.from({ length: 12 }, (_, line) => `${indent}Prose about ${name}, line ${String(line)}.`),
      `${indent}"""`,
    ];
    const rows = [
      ...doc("", "The module"),
      "import os",
      ...Array.from({ length: 80 }, (_, index) => [
        `def fn_${String(index)}(value):`,
        ...doc("    ", `fn_${String(index)}`),
        `    return os.path.join(value, "${String(index)}")`,
      ]).flat(),
    ];
    const sent = `${rows.join("\n")}\n`;
    const request = {
      sessionId: "sdk-py",
      result: { toolName: "bash", argsJson: JSON.stringify({ command: "cat src/module.py" }), parts: [{ content: { case: "text" as const, value: sent } }] },
    };
    const first = await client.project(request);
    const again = await client.project(request);
    assert.ok(first.resultId !== "" && first.archived && first.omissions.length > 0);
    assert.equal(textOf(again.parts), textOf(first.parts), "the same bytes for the same result");
    const view = textOf(first.parts);
    assert.ok(view.includes("\nimport os\n") && view.includes('return os.path.join(value, "0")'), "the head reaches code below the docstrings");
    assert.ok(!view.includes("Prose about The module, line 5."), "the module's docstring is left to recovery");
    for (const omission of first.omissions) {
      assert.equal(await client.recoverAll(omission.continuationJson), linesOf(sent, omission.startLine ?? 0, omission.endLine ?? 0));
    }
  });

  it("fails a large project with deadline_exceeded when the deadline is tiny", async () => {
    const large = numberedLines(120_000, "slow");
    await assert.rejects(
      client.project({ sessionId: "sdk-2", result: { toolName: "bash", parts: [{ content: { case: "text", value: large } }] } }, { timeoutMs: 1 }),
      isCode("deadline_exceeded"),
    );
  });

  it("projects every tool_result of a realistic Anthropic messages array, keeping ids, is_error and the order", async () => {
    const bashOutput = numberedLines(3000, "test");
    const readOutput = "1\texport const answer = 42;\n2\texport const question = undefined;\n";
    const messages: AnthropicMessage[] = [
      { role: "user", content: "The build fails; find out why." },
      {
        role: "assistant",
        content: [
          { type: "text", text: "I will run the tests and read the config." },
          { type: "tool_use", id: "toolu_bash", name: "Bash", input: { command: "npm test" } },
          { type: "tool_use", id: "toolu_read", name: "Read", input: { file_path: "src/answer.ts" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_bash", content: [{ type: "text", text: bashOutput }], is_error: true },
          { type: "tool_result", tool_use_id: "toolu_read", content: readOutput },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "The question is undefined." }] },
    ];
    const projected = await projectAnthropicMessages(client, messages, { sessionId: "sdk-3", source: "sdk-test" });
    assert.equal(projected.projectedResults, 2);
    assert.ok(projected.savedTokens > 0);
    assert.equal(projected.messages.length, messages.length);
    assert.deepEqual(projected.messages[0], messages[0]);
    assert.deepEqual(projected.messages[1], messages[1]);
    assert.deepEqual(projected.messages[3], messages[3]);
    const results = projected.messages[2]?.content;
    assert.ok(Array.isArray(results) && results.length === 2);
    const [bash, read] = results as Array<{ type: string; tool_use_id: string; is_error?: boolean; content: unknown }>;
    assert.deepEqual([bash?.type, bash?.tool_use_id, bash?.is_error], ["tool_result", "toolu_bash", true]);
    assert.ok(Array.isArray(bash?.content));
    const bashView = textOf((bash.content as Array<{ text: string }>).map((block) => ({ content: { case: "text", value: block.text } })));
    assert.ok(bashView.length < bashOutput.length / 4, "the long output was cut");
    assert.match(bashView, /^\[loupe/m, "the cut is marked by a notice line");
    assert.ok(bashView.includes("test 03000:"), "the last line is kept");
    assert.deepEqual(read, { type: "tool_result", tool_use_id: "toolu_read", content: readOutput }, "a result that fits comes back unchanged");
  });
  it("streams turns, compacts and reads history through the SDK; a retried append counts duplicates", async () => {
    const turns = [
      { seq: 1, role: "user", parts: [{ content: { case: "text" as const, value: "Upgrade the lockfile and run the tests." } }] },
      { seq: 2, role: "assistant", parts: [{ content: { case: "text" as const, value: "Running pnpm install." } }] },
    ];
    const first = await client.appendTurns({ sessionId: "sdk-turns", source: "sdk", turns, contextWindowTokens: 100_000 });
    assert.equal(first.accepted, 2);
    const again = await client.appendTurns({ sessionId: "sdk-turns", turns });
    assert.deepEqual([again.accepted, again.duplicates], [0, 2]);
    const compacted = await client.compact({ sessionId: "sdk-turns", format: HistoryFormat.OPENAI_CHAT, contextLimitTokens: 100_000 });
    assert.equal(compacted.path, CompactPath.PREPARED);
    const history = await client.readHistory({ sessionId: "sdk-turns", address: "turn:2" });
    assert.match(history.text, /pnpm install/);
    assert.equal((await client.searchHistory({ sessionId: "sdk-turns", query: "lockfile" })).hits[0]?.address, "turn:1");
  });
});

describe("@loupe/client retries", () => {
  it("succeeds when Loupe starts listening after the first attempts were refused", async () => {
    const grpcPort = await freePort();
    const httpPort = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), "loupe-sdk-retry-"));
    const address = `127.0.0.1:${String(grpcPort)}`;
    const once = createLoupeClient({ address, retries: 0 });
    await assert.rejects(once.getSourceLimit({ source: "app" }), isCode("unavailable"), "nothing listens yet");
    once.close();
    const client = createLoupeClient({ address, retries: 30, maxRetryDelayMs: 500, timeoutMs: 60_000 });
    const started = new Promise<ReturnType<typeof startLoupeProcess>>((resolve) =>
      setTimeout(
        () => resolve(startLoupeProcess(["serve"], { LOUPE_DATA_DIR: dataDir, LOUPE_GRPC_PORT: String(grpcPort), LOUPE_HTTP_PORT: String(httpPort) })),
        300,
      ),
    );
    try {
      const response = await client.project({ sessionId: "sdk-retry", result: { toolName: "bash", parts: [{ content: { case: "text", value: "hello\n" } }] } });
      assert.equal(textOf(response.parts), "hello\n");
    } finally {
      client.close();
      await (await started).stop("SIGKILL");
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
