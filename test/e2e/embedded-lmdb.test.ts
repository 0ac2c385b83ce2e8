import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { freePort, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { numberedLines } from "../support/fixtures.js";
import { linesOf, recoverOmission, textOf } from "../support/recover-omission.js";

// Embedded Loupe with its archive in an LMDB database (LOUPE_ARCHIVE_BACKEND=lmdb): the archive service's
// saves, reads, searches and deletes over it, and what it acknowledged kept across a SIGKILL.
describe("embedded mode with the LMDB archive", () => {
  let dataDir: string;
  let grpcPort: number;
  let loupe: LoupeProcess;
  let client: GrpcClient<typeof ProjectionService>;
  const env = (): Record<string, string> => ({
    LOUPE_DATA_DIR: dataDir,
    LOUPE_GRPC_PORT: String(grpcPort),
    LOUPE_HTTP_PORT: "0",
    LOUPE_ARCHIVE_BACKEND: "lmdb",
  });
  const project = (sessionId: string, text: string) =>
    client.project({ sessionId, result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] } });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "loupe-embedded-lmdb-"));
    grpcPort = await freePort();
    loupe = startLoupeProcess(["serve"], env());
    await loupe.waitFor(/loupe is serving/);
    client = createGrpcClient(ProjectionService, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: 16 * 1024 * 1024 });
  });
  after(async () => {
    client.close();
    await loupe.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  it("saves into the database, and Recover returns exactly the omitted lines, by range and by pattern", async () => {
    const original = numberedLines(5000);
    const response = await project("s1", original);
    assert.equal(response.archived, true);
    // 275 KB: over the database's inline limit, so its content is a file of its own, named in the database.
    assert.ok((await stat(join(dataDir, "archive-lmdb", "data.mdb"))).isFile());
    const bodies = await readdir(join(dataDir, "archive-lmdb", "bodies"));
    assert.ok(
      (await Promise.all(bodies.map((name) => stat(join(dataDir, "archive-lmdb", "bodies", name))))).some((file) => file.size === Buffer.byteLength(original)),
    );
    for (const omission of response.omissions) {
      assert.ok(omission.startLine !== undefined && omission.endLine !== undefined);
      assert.equal((await recoverOmission(client, omission)).text, linesOf(original, omission.startLine, omission.endLine));
    }
    const found = await client.recover({ resultId: response.resultId, pattern: "row 04321:" });
    assert.match(textOf(found.parts), /row 04321: the quick brown fox/);
  });

  it("deletes a session's results", async () => {
    const response = await project("to-delete", numberedLines(3000, "gone"));
    assert.equal((await client.deleteResults({ target: { case: "sessionId", value: "to-delete" } })).resultsDeleted, 1);
    await assert.rejects(
      client.recover({ resultId: response.resultId, startLine: 1, endLine: 2 }),
      (error: unknown) => isAppError(error) && error.code === "not_found",
    );
  });

  it("keeps every result it acknowledged when it is killed in the middle of saving, and serves them after a restart", async () => {
    const acknowledged: Array<{ resultId: string; text: string }> = [];
    let stopping = false;
    const callers = Array.from({ length: 8 }, async (_, caller) => {
      for (let call = 0; !stopping; call++) {
        const text = numberedLines(1500, `c${String(caller)}-${String(call)}`);
        try {
          const response = await project(`kill-${String(caller)}`, text);
          if (response.archived && response.resultId !== "") acknowledged.push({ resultId: response.resultId, text });
        } catch {
          return; // the process is gone
        }
      }
    });
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
    await loupe.stop("SIGKILL");
    stopping = true;
    await Promise.all(callers);
    loupe = startLoupeProcess(["serve"], env());
    await loupe.waitFor(/loupe is serving/);
    for (const { resultId, text } of acknowledged) {
      const recovered = await client.recover({ resultId, startLine: 1496, endLine: 1500 });
      assert.equal(textOf(recovered.parts), linesOf(text, 1496, 1500), resultId);
    }
  });

  it("leaves a data dir an earlier Loupe started on files on its files by default, and reads what was saved there", async () => {
    const earlier = await mkdtemp(join(tmpdir(), "loupe-embedded-files-"));
    const port = await freePort();
    const serve = (extra: Record<string, string>) =>
      startLoupeProcess(["serve"], { LOUPE_DATA_DIR: earlier, LOUPE_GRPC_PORT: String(port), LOUPE_HTTP_PORT: "0", ...extra });
    const other = createGrpcClient(ProjectionService, `127.0.0.1:${String(port)}`, { maxResultBytes: 16 * 1024 * 1024 });
    try {
      // What a Loupe before the LMDB archive ran: the file store.
      let process = serve({ LOUPE_ARCHIVE_BACKEND: "fs" });
      await process.waitFor(/loupe is serving/);
      const original = numberedLines(3000, "kept");
      const saved = await other.project({ sessionId: "upgrade", result: { toolName: "bash", parts: [{ content: { case: "text", value: original } }] } });
      assert.equal(await process.stop("SIGTERM"), 0);
      process = serve({});
      const serving = await process.waitFor(/loupe is serving/);
      assert.match(serving, /"archive":"fs"/);
      const recovered = await other.recover({ resultId: saved.resultId, startLine: 2990, endLine: 3000 });
      assert.equal(textOf(recovered.parts), linesOf(original, 2990, 3000));
      await process.stop("SIGTERM");
    } finally {
      other.close();
      await rm(earlier, { recursive: true, force: true });
    }
  });
});
