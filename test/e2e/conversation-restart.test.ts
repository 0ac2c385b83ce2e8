import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createGrpcClient } from "@loupe/grpc";
import { ConversationService } from "@loupe/proto";
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
