import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createGrpcClient } from "@loupe/grpc";
import { ConversationService, ProjectionService } from "@loupe/proto";
import { freePort, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { agentSession } from "../support/agent-session.js";
import { eventually } from "../support/eventually.js";

describe("embedded mode keeps every accepted turn and note across a crash (invariant 8)", () => {
  let dataDir = "";
  let loupe: LoupeProcess | undefined;
  after(async () => {
    await loupe?.stop("SIGKILL");
    if (dataDir !== "") await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (grpcPort: number) => {
    loupe = startLoupeProcess(["serve"], { LOUPE_DATA_DIR: dataDir, LOUPE_GRPC_PORT: String(grpcPort), LOUPE_HTTP_PORT: "0" });
    await loupe.waitFor(/loupe is serving/);
    return createGrpcClient(ConversationService, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
  };

  it("answers the same log, note and duplicates after SIGKILL and a restart on the same data dir", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "loupe-restart-"));
    const grpcPort = await freePort();
    const turns = agentSession(10);
    let client = await start(grpcPort);
    await client.appendTurns({ sessionId: "crash", source: "app", systemPrompt: "You are a coding agent.", turns, contextWindowTokens: 6000 });
    const before = await eventually(async () => {
      const got = await client.getNote({ sessionId: "crash" });
      return (got.note?.version ?? 0) > 0 ? got.note : undefined;
    }, 20_000);
    client.close();
    await loupe?.stop("SIGKILL");

    client = await start(grpcPort);
    const history = await client.readHistory({ sessionId: "crash", startSeq: 1, budgetTokens: 200_000 });
    assert.deepEqual(
      history.turns.map((turn) => turn.seq),
      turns.map((turn) => turn.seq),
      "every accepted turn is still in the log",
    );
    const after = await client.getNote({ sessionId: "crash" });
    assert.ok((after.note?.version ?? 0) >= (before?.version ?? 1), "the note survived");
    const retry = await client.appendTurns({ sessionId: "crash", turns: turns.slice(-4) });
    assert.deepEqual([retry.accepted, retry.duplicates], [0, 4], "a retry after the crash is still recognised");
    client.close();
  });
});

describe("embedded mode keeps every saved result across a crash (invariant 8, the archive's journal)", () => {
  let dataDir = "";
  let loupe: LoupeProcess | undefined;
  after(async () => {
    await loupe?.stop("SIGKILL");
    if (dataDir !== "") await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (grpcPort: number) => {
    loupe = startLoupeProcess(["serve"], { LOUPE_DATA_DIR: dataDir, LOUPE_GRPC_PORT: String(grpcPort), LOUPE_HTTP_PORT: "0" });
    await loupe.waitFor(/loupe is serving/);
    return createGrpcClient(ProjectionService, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
  };

  it("recovers every acknowledged result whole after SIGKILL mid-load and a restart on the same data dir", async () => {
    dataDir = await mkdtemp(join(tmpdir(), "loupe-restart-"));
    const grpcPort = await freePort();
    let client = await start(grpcPort);
    const texts = Array.from({ length: 40 }, (_, call) =>
      Array.from({ length: 400 }, (_, line) => `[call ${String(call)}] line ${String(line)}: compiling src/module${String(line % 37)}.ts ... ok`).join("\n"),
    );
    const saved: { resultId: string; text: string }[] = [];
    // Calls keep coming while the process is killed: only what was acknowledged must survive.
    const inFlight = texts.map(async (text, call) => {
      const answer = await client.project({
        sessionId: `crash-${String(call % 4)}`,
        result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] },
      });
      if (answer.archived) saved.push({ resultId: answer.resultId, text });
    });
    await eventually(() => Promise.resolve(saved.length >= 20 ? true : undefined), 20_000);
    const journal = await readdir(join(dataDir, "archive", ".journal"));
    assert.ok(
      journal.some((name) => name.endsWith(".log")),
      "a crash leaves the journal to replay",
    );
    await loupe?.stop("SIGKILL");
    await Promise.allSettled(inFlight);
    client.close();

    client = await start(grpcPort);
    for (const { resultId, text } of saved) {
      const lines = text.split("\n").length;
      const recovered = await client.recover({ resultId, startLine: 1, endLine: lines, budgetTokens: 200_000 });
      assert.equal(recovered.parts.map((part) => (part.content.case === "text" ? part.content.value : "")).join(""), text, `${resultId} is whole`);
    }
    client.close();
  });
});
