import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { DescService } from "@bufbuild/protobuf";
import { createGrpcClient } from "@loupe/grpc";
import { ConversationService, ProjectionService } from "@loupe/proto";
import { freePort, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { agentSession } from "../support/agent-session.js";
import { eventually } from "../support/eventually.js";

/** `loupe serve` on one data dir and port, which a test kills (SIGKILL) and starts again. */
function crashableLoupe(backend: "fs" | "lmdb") {
  let dataDir = "";
  let grpcPort = 0;
  let loupe: LoupeProcess | undefined;
  return {
    dataDir: () => dataDir,
    async start<S extends DescService>(service: S) {
      if (dataDir === "") [dataDir, grpcPort] = [await mkdtemp(join(tmpdir(), "loupe-restart-")), await freePort()];
      loupe = startLoupeProcess(["serve"], {
        LOUPE_DATA_DIR: dataDir,
        LOUPE_GRPC_PORT: String(grpcPort),
        LOUPE_HTTP_PORT: "0",
        LOUPE_ARCHIVE_BACKEND: backend,
      });
      await loupe.waitFor(/loupe is serving/);
      return createGrpcClient(service, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
    },
    kill: async () => {
      await loupe?.stop("SIGKILL");
    },
    async cleanup() {
      await loupe?.stop("SIGKILL");
      if (dataDir !== "") await rm(dataDir, { recursive: true, force: true });
    },
  };
}

for (const backend of ["fs", "lmdb"] as const) {
  describe(`embedded mode keeps every accepted turn and note across a crash (invariant 8), archive ${backend}`, () => {
    const loupe = crashableLoupe(backend);
    after(() => loupe.cleanup());

    it("answers the same log, note and duplicates after SIGKILL and a restart on the same data dir", async () => {
      const turns = agentSession(10);
      let client = await loupe.start(ConversationService);
      await client.appendTurns({ sessionId: "crash", source: "app", systemPrompt: "You are a coding agent.", turns, contextWindowTokens: 6000 });
      const before = await eventually(async () => {
        const got = await client.getNote({ sessionId: "crash" });
        return (got.note?.version ?? 0) > 0 ? got.note : undefined;
      }, 20_000);
      client.close();
      await loupe.kill();

      client = await loupe.start(ConversationService);
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
}

// The LMDB archive's crash test is test/e2e/embedded-lmdb.test.ts.
describe("embedded mode keeps every saved result across a crash (invariant 8, the file archive's journal)", () => {
  const loupe = crashableLoupe("fs");
  after(() => loupe.cleanup());

  it("recovers every acknowledged result whole after SIGKILL mid-load and a restart on the same data dir", async () => {
    let client = await loupe.start(ProjectionService);
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
    const journal = await readdir(join(loupe.dataDir(), "archive", ".journal"));
    assert.ok(
      journal.some((name) => name.endsWith(".log")),
      "a crash leaves the journal to replay",
    );
    await loupe.kill();
    await Promise.allSettled(inFlight);
    client.close();

    client = await loupe.start(ProjectionService);
    for (const { resultId, text } of saved) {
      const lines = text.split("\n").length;
      const recovered = await client.recover({ resultId, startLine: 1, endLine: lines, budgetTokens: 200_000 });
      assert.equal(recovered.parts.map((part) => (part.content.case === "text" ? part.content.value : "")).join(""), text, `${resultId} is whole`);
    }
    client.close();
  });
});
