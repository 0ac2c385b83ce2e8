import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { freePort, removeBucket, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { numberedLines } from "../support/fixtures.js";

const isNotFound = (error: unknown) => isAppError(error) && error.code === "not_found";

describe("deleting results on RGW through loupe archive + loupe gateway", () => {
  const run = randomUUID().slice(0, 8);
  const bucket = `loupe-delete-${run}`;
  let archive: LoupeProcess;
  let gateway: LoupeProcess;
  let client: GrpcClient<typeof ProjectionService>;
  let httpBase: string;

  before(async () => {
    const archivePort = await freePort();
    const gatewayPort = await freePort();
    const httpPort = await freePort();
    archive = startLoupeProcess(["archive"], {
      ...s3ProcessEnv(s3TestEnv(), bucket),
      LOUPE_GRPC_PORT: String(archivePort),
      LOUPE_HTTP_PORT: String(await freePort()),
    });
    gateway = startLoupeProcess(["gateway"], {
      LOUPE_ARCHIVE_ADDR: `127.0.0.1:${String(archivePort)}`,
      LOUPE_GRPC_PORT: String(gatewayPort),
      LOUPE_HTTP_PORT: String(httpPort),
      LOUPE_RESULT_ID_SECRET: `delete-${run}`,
    });
    await Promise.all([archive.waitFor(/archive started/), gateway.waitFor(/gateway started/)]);
    client = createGrpcClient(ProjectionService, `127.0.0.1:${String(gatewayPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
    httpBase = `http://127.0.0.1:${String(httpPort)}`;
  });

  after(async () => {
    client.close();
    await Promise.all([gateway.stop(), archive.stop()]);
    await removeBucket(s3TestEnv(), bucket);
  });

  async function saved(sessionId: string, text: string): Promise<string> {
    const response = await client.project({ sessionId, result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] } });
    assert.equal(response.archived, true);
    await client.recover({ resultId: response.resultId, startLine: 1, endLine: 1 });
    return response.resultId;
  }

  it("deletes by result over gRPC, keeping a blob another result shares until it goes too", async () => {
    const text = numberedLines(3000, "shared");
    const first = await saved("g1", text);
    const second = await saved("g2", text);
    assert.deepEqual(await client.deleteResults({ target: { case: "resultId", value: first } }), {
      $typeName: "loupe.v1.DeleteResultsResponse",
      resultsDeleted: 1,
      blobsDeleted: 0,
    });
    await assert.rejects(client.recover({ resultId: first, startLine: 1, endLine: 1 }), isNotFound);
    await client.recover({ resultId: second, startLine: 1, endLine: 1 });
    const last = await client.deleteResults({ target: { case: "resultId", value: second } });
    assert.deepEqual([last.resultsDeleted, last.blobsDeleted], [1, 1]);
    await assert.rejects(client.recover({ resultId: second, startLine: 1, endLine: 1 }), isNotFound);
  });

  it("refuses a malformed target over gRPC", async () => {
    await assert.rejects(
      client.deleteResults({ target: { case: "resultId", value: "nope" } }),
      (error: unknown) => isAppError(error) && error.code === "invalid_argument",
    );
    await assert.rejects(client.deleteResults({}), (error: unknown) => isAppError(error) && error.code === "invalid_argument");
  });

  it("deletes by result, session and team over REST; another team is 404, a malformed id 400", async () => {
    const one = await saved("rest-1", numberedLines(3000, "one"));
    const two = await saved("rest-2", numberedLines(3000, "two"));
    const three = await saved("rest-2", numberedLines(3000, "three"));
    const call = async (path: string) => {
      const response = await fetch(`${httpBase}${path}`, { method: "DELETE" });
      return { status: response.status, body: await response.json() };
    };

    assert.equal((await call(`/api/teams/acme/results/${one}`)).status, 404);
    assert.equal((await call(`/api/teams/local/results/nope`)).status, 400);
    assert.deepEqual(await call(`/api/teams/local/results/${one}`), { status: 200, body: { results_deleted: 1, blobs_deleted: 1 } });
    await assert.rejects(client.recover({ resultId: one, startLine: 1, endLine: 1 }), isNotFound);

    assert.deepEqual(await call(`/api/teams/local/sessions/rest-2`), { status: 200, body: { results_deleted: 2, blobs_deleted: 2 } });
    await assert.rejects(client.recover({ resultId: two, startLine: 1, endLine: 1 }), isNotFound);
    await assert.rejects(client.recover({ resultId: three, startLine: 1, endLine: 1 }), isNotFound);

    const four = await saved("rest-3", numberedLines(3000, "four"));
    assert.equal((await call(`/api/teams/acme`)).status, 404);
    const team = await call(`/api/teams/local`);
    assert.equal(team.status, 200);
    assert.ok((team.body as { results_deleted: number }).results_deleted >= 1);
    await assert.rejects(client.recover({ resultId: four, startLine: 1, endLine: 1 }), isNotFound);
  });
});
