import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { MAX_SESSION_ID_CHARS } from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { Health, HealthCheckResponse_ServingStatus, ProjectionService, ReflectionV1ServerReflection } from "@loupe/proto";
import { freePort, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { numberedLines } from "../support/fixtures.js";
import { rebuildFromView } from "../support/rebuild-from-view.js";
import { linesOf, recoverOmission, textOf } from "../support/recover-omission.js";

const MAX_RESULT_BYTES = 2 * 1024 * 1024;
const counter = createTokenCounter();
const isCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code && !error.message.includes("\n");

describe("embedded mode (loupe serve)", () => {
  let dataDir: string;
  let grpcPort: number;
  let httpPort: number;
  let loupe: LoupeProcess;
  let client: GrpcClient<typeof ProjectionService>;
  const env = (): Record<string, string> => ({
    LOUPE_DATA_DIR: dataDir,
    LOUPE_GRPC_PORT: String(grpcPort),
    LOUPE_HTTP_PORT: String(httpPort),
    LOUPE_MAX_RESULT_BYTES: String(MAX_RESULT_BYTES),
    // Embedded mode needs no servers: point the distributed settings nowhere to prove it.
    LOUPE_NATS_URL: "nats://127.0.0.1:1",
    LOUPE_REDIS_URL: "redis://127.0.0.1:1",
  });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "loupe-embedded-"));
    grpcPort = await freePort();
    httpPort = await freePort();
    loupe = startLoupeProcess(["serve"], env());
    await loupe.waitFor(/loupe is serving/);
    client = createGrpcClient(ProjectionService, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: MAX_RESULT_BYTES * 2 });
  });
  after(async () => {
    client.close();
    await loupe.stop("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  const original = numberedLines(5000);
  let firstResultId = "";
  let firstView = "";

  it("projects a 5,000-line text to whole lines within budget, and Recover returns exactly the omitted lines", async () => {
    const response = await client.project({ sessionId: "s1", result: { toolName: "bash", parts: [{ content: { case: "text", value: original } }] } });
    const view = textOf(response.parts);
    assert.ok(response.resultId.startsWith("r_"));
    assert.equal(response.archived, true);
    assert.ok(counter.count(view) <= 2000, "within the default budget");
    assert.match(response.revision, /^sha256:[0-9a-f]{64}$/);
    assert.ok(response.projectorVersion !== "");
    assert.ok(response.omissions.length >= 1);
    for (const line of view.split("\n").filter((line) => line !== "")) {
      assert.ok(line.startsWith("[loupe") || original.includes(line + "\n"), `kept lines are whole original lines: ${line}`);
    }
    const recovered = [];
    for (const omission of response.omissions) {
      assert.ok(omission.startLine !== undefined && omission.endLine !== undefined);
      const recovery = await recoverOmission(client, omission);
      assert.equal(recovery.text, linesOf(original, omission.startLine, omission.endLine));
      for (const page of recovery.pages) assert.ok(counter.count(textOf(page.parts)) <= 2000);
      recovered.push({ startLine: omission.startLine, endLine: omission.endLine, text: recovery.text, pages: recovery.pages.length });
    }
    assert.ok(
      recovered.some((recovery) => recovery.pages > 1),
      "the budget split a range into pages",
    );
    // The view and the recovered lines rebuild the original.
    assert.equal(rebuildFromView(view, 5000, recovered), original);
    firstResultId = response.resultId;
    firstView = view;
  });

  it("answers malformed requests with INVALID_ARGUMENT or NOT_FOUND and a one-line message", async () => {
    await assert.rejects(client.project({ sessionId: "s1" }), isCode("invalid_argument"));
    await assert.rejects(client.project({ budgetTokens: 10, result: { parts: [{ content: { case: "text", value: "x" } }] } }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ startLine: 1 }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ resultId: "nope" }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ resultId: "r_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", startLine: 1, endLine: 2 }), isCode("not_found"));
    await assert.rejects(client.recover({ resultId: firstResultId, startLine: 0, endLine: 3 }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ resultId: firstResultId, startLine: 9, endLine: 3 }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ resultId: firstResultId, startLine: 6000 }), isCode("invalid_argument"));
    await assert.rejects(client.recover({ resultId: firstResultId, cursor: "garbage" }), isCode("invalid_argument"));
    await assert.rejects(
      client.recover({ resultId: firstResultId, startLine: 1, expectedRevision: "sha256:00" }),
      (error: unknown) => isAppError(error) && error.code === "failed_precondition" && error.message.includes("sha256:00"),
    );
  });

  it("takes the same session ids in Project and DeleteResults as in the turn log (up to 512 characters)", async () => {
    const long = "s".repeat(MAX_SESSION_ID_CHARS);
    const saved = await client.project({
      sessionId: long,
      result: { toolName: "bash", parts: [{ content: { case: "text", value: numberedLines(3000, "long-session") } }] },
    });
    assert.equal(saved.archived, true);
    assert.equal((await client.deleteResults({ target: { case: "sessionId", value: long } })).resultsDeleted, 1);
    const over = `${long}s`;
    await assert.rejects(client.project({ sessionId: over, result: { parts: [{ content: { case: "text", value: "x" } }] } }), isCode("invalid_argument"));
    await assert.rejects(client.deleteResults({ target: { case: "sessionId", value: over } }), isCode("invalid_argument"));
  });

  it("refuses a result over LOUPE_MAX_RESULT_BYTES with RESOURCE_EXHAUSTED naming the limit", async () => {
    const big = "x".repeat(MAX_RESULT_BYTES + 10);
    await assert.rejects(
      client.project({ result: { parts: [{ content: { case: "text", value: big } }] } }),
      (error: unknown) => isAppError(error) && error.code === "resource_exhausted" && error.message.includes("LOUPE_MAX_RESULT_BYTES"),
    );
  });

  it("serves gRPC health, reflection and GET /healthz", async () => {
    const health = createGrpcClient(Health, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: 1024 * 1024 });
    assert.equal((await health.check({ service: "loupe.v1.ProjectionService" })).status, HealthCheckResponse_ServingStatus.SERVING);
    health.close();
    const reflection = createGrpcClient(ReflectionV1ServerReflection, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: 1024 * 1024 });
    const answers = [];
    for await (const answer of reflection.serverReflectionInfo([{ messageRequest: { case: "listServices", value: "" } }])) answers.push(answer);
    const listed = answers[0]?.messageResponse;
    assert.ok(listed?.case === "listServicesResponse" && listed.value.service.some((service) => service.name === "loupe.v1.ProjectionService"));
    reflection.close();
    const healthz = await fetch(`http://127.0.0.1:${String(httpPort)}/healthz`);
    assert.equal(healthz.status, 200);
  });

  it("refuses a second embedded process on the same data dir", async () => {
    const second = startLoupeProcess(["serve"], { ...env(), LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: "0" });
    assert.equal(await second.exited, 1);
    assert.match(second.lines.join("\n"), /data dir is in use by another process/);
  });

  it("exits 1 naming the address when its HTTP port is taken, embedded or a gateway of its own, instead of hanging", async () => {
    const otherDir = await mkdtemp(join(tmpdir(), "loupe-embedded-taken-"));
    try {
      const taken = { LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: String(httpPort) };
      const serve = startLoupeProcess(["serve"], { ...env(), ...taken, LOUPE_DATA_DIR: otherDir });
      const gateway = startLoupeProcess(["gateway"], { ...taken, LOUPE_ARCHIVE_ADDR: "127.0.0.1:1" });
      const codes = await Promise.all(
        [serve, gateway].map(async (child) => {
          const code = await Promise.race([child.exited, new Promise((resolve) => setTimeout(() => resolve("still running after 20 s"), 20_000).unref())]);
          if (code !== 1) await child.stop("SIGKILL");
          return code;
        }),
      );
      for (const [index, child] of [serve, gateway].entries()) {
        assert.equal(codes[index], 1);
        assert.match(child.lines.join("\n"), new RegExp(`cannot bind http server \\[address=127\\.0\\.0\\.1:${String(httpPort)}\\]`));
      }
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it("keeps what it accepted across a restart, and gives the same view again", async () => {
    assert.equal(await loupe.stop("SIGTERM"), 0, "graceful shutdown exits 0");
    loupe = startLoupeProcess(["serve"], env());
    await loupe.waitFor(/loupe is serving/);
    const recovered = await client.recover({ resultId: firstResultId, startLine: 4990, endLine: 5000 });
    assert.equal(textOf(recovered.parts), linesOf(original, 4990, 5000));
    const again = await client.project({ sessionId: "s1", result: { toolName: "bash", parts: [{ content: { case: "text", value: original } }] } });
    assert.equal(again.resultId, firstResultId);
    assert.equal(textOf(again.parts), firstView);
  });
});
