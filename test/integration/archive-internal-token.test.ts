import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createArchiveClient, type ArchiveClient } from "@loupe/archive-client";
import { revisionOf } from "@loupe/archive-store/content";
import { isAppError } from "@loupe/errors";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { freePort, removeBucket, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { numberedLines } from "../support/fixtures.js";

const MAX_BYTES = 1000;

describe("the archive answers Loupe's own services only (LOUPE_INTERNAL_TOKEN)", () => {
  const run = randomUUID().slice(0, 8);
  const bucket = `loupe-internal-${run}`;
  const internalToken = randomBytes(32).toString("base64url");
  let archive: LoupeProcess;
  let gateway: LoupeProcess;
  let archiveAddress: string;
  let client: GrpcClient<typeof ProjectionService>;

  before(async () => {
    const archivePort = await freePort();
    const gatewayPort = await freePort();
    archiveAddress = `127.0.0.1:${String(archivePort)}`;
    archive = startLoupeProcess(["archive"], {
      ...s3ProcessEnv(s3TestEnv(), bucket),
      LOUPE_GRPC_PORT: String(archivePort),
      LOUPE_HTTP_PORT: "0",
      LOUPE_INTERNAL_TOKEN: internalToken,
    });
    gateway = startLoupeProcess(["gateway"], {
      LOUPE_ARCHIVE_ADDR: archiveAddress,
      LOUPE_GRPC_PORT: String(gatewayPort),
      LOUPE_HTTP_PORT: "0",
      LOUPE_RESULT_ID_SECRET: `internal-${run}`,
      LOUPE_INTERNAL_TOKEN: internalToken,
    });
    await Promise.all([archive.waitFor(/archive started/), gateway.waitFor(/gateway started/)]);
    client = createGrpcClient(ProjectionService, `127.0.0.1:${String(gatewayPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
  });
  after(async () => {
    client.close();
    await Promise.all([gateway.stop(), archive.stop()]);
    await removeBucket(s3TestEnv(), bucket);
  });

  it("serves the gateway, which presents the token, and refuses a caller that names a tenant without it", async () => {
    const saved = await client.project({ sessionId: "s", result: { toolName: "bash", parts: [{ content: { case: "text", value: numberedLines(3000) } }] } });
    assert.equal(saved.archived, true, "the gateway's puts are accepted");
    const forge = async (archiveClient: ArchiveClient): Promise<unknown> =>
      archiveClient.read("local", { resultId: saved.resultId, startLine: 1, endLine: 1, maxBytes: MAX_BYTES }).catch((error: unknown) => error);
    for (const token of [undefined, "not-the-token"]) {
      const outsider = createArchiveClient(archiveAddress, 1024 * 1024, token);
      const answer = await forge(outsider);
      assert.ok(isAppError(answer) && answer.code === "unauthenticated", `token ${String(token)}: ${String(answer)}`);
      const bytes = new TextEncoder().encode("forged");
      const put = await outsider
        .put("local", { resultId: "r_" + "f".repeat(32), revision: revisionOf(bytes), sessionId: "x", sizeBytes: BigInt(bytes.byteLength) }, bytes, {
          timeoutMs: 5000,
        })
        .catch((error: unknown) => error);
      assert.ok(isAppError(put) && put.code === "unauthenticated");
    }
    const insider = createArchiveClient(archiveAddress, 1024 * 1024, internalToken);
    const read = await insider.read("local", { resultId: saved.resultId, startLine: 1, endLine: 1, maxBytes: MAX_BYTES });
    assert.match(new TextDecoder().decode(read.data), /row 00001/);
  });
});
