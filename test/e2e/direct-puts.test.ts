// Distributed mode with LOUPE_GATEWAY_PUTS=direct: the gateway writes each saved result to the archive's
// bucket itself (the archive's own Put, run in the gateway's process), while reads and searches still go to
// the archive service — on a real Ceph RGW, with Redis and NATS (test/support/distributed-loupe.ts).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { freePort, rgwDir, rgwInstance, s3TestEnv, startLoupeProcess } from "@loupe/testing";
import { startDistributedLoupe, type DistributedLoupe } from "../support/distributed-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { metricsOf, sample } from "../support/prometheus-text.js";
import { linesOf, recoverOmission, textOf } from "../support/recover-omission.js";

describe("distributed mode with the gateway writing its saves to the archive's bucket (LOUPE_GATEWAY_PUTS=direct)", () => {
  let loupe: DistributedLoupe;

  before(async () => {
    loupe = await startDistributedLoupe({ LOUPE_RESULT_ID_SECRET: `e2e-direct-${randomUUID()}` }, { directPuts: true });
  });

  after(async () => {
    await loupe.stop();
  });

  it("saves in the gateway's process, and the archive service reads and searches what it saved", async () => {
    const original = numberedLines(5000);
    const response = await loupe.client.project({
      sessionId: "direct-1",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: original } }] },
    });
    assert.equal(response.archived, true);
    const [omission] = response.omissions;
    assert.ok(omission?.startLine !== undefined && omission.endLine !== undefined);
    const recovered = await recoverOmission(loupe.client, omission);
    assert.equal(recovered.text, linesOf(original, omission.startLine, omission.endLine));
    const found = await loupe.client.recover({ resultId: response.resultId, pattern: "row 04321:", contextLines: 0 });
    assert.match(textOf(found.parts), /row 04321: the quick brown fox/);

    const [gatewayMetrics, archiveMetrics] = await Promise.all([metricsOf(loupe.httpPorts.gateway), metricsOf(loupe.httpPorts.archive)]);
    assert.equal(sample(gatewayMetrics, "loupe_archive_put_duration_count", { operation: "put", outcome: "ok" }), 1, "the save ran in the gateway");
    assert.equal(sample(archiveMetrics, "loupe_archive_put_duration_count", { operation: "put" }), undefined, "no Put reached the archive service");
    assert.ok((sample(archiveMetrics, "loupe_archive_read_duration_count", { operation: "read", outcome: "ok" }) ?? 0) >= 1, archiveMetrics);
    assert.ok((sample(archiveMetrics, "loupe_archive_read_duration_count", { operation: "search", outcome: "ok" }) ?? 0) >= 1, archiveMetrics);
  });

  it("deletes through the archive service what the gateway saved", async () => {
    const response = await loupe.client.project({
      sessionId: "direct-2",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: numberedLines(3000) } }] },
    });
    assert.equal(response.archived, true);
    const deleted = await loupe.client.deleteResults({ target: { case: "sessionId", value: "direct-2" } });
    assert.equal(deleted.resultsDeleted, 1);
    await assert.rejects(loupe.client.recover({ resultId: response.resultId, startLine: 1, endLine: 2 }), /not found|NOT_FOUND/i);
  });

  it("answers fail-open while the S3 server is down, and saves again once it is back (invariant 6)", async () => {
    // The shared RGW of the test run (test files run one at a time): stopped here, started again in any case.
    const rgw = rgwInstance(rgwDir(), Number(new URL(s3TestEnv().endpoint).port));
    const small = numberedLines(700, "down");
    try {
      await rgw.killGateway();
      const down = await loupe.client.project({ sessionId: "direct-3", result: { toolName: "bash", parts: [{ content: { case: "text", value: small } }] } });
      assert.equal(down.archived, false);
      assert.equal(down.resultId, "");
      assert.equal(textOf(down.parts), small, "the input unchanged");
    } finally {
      await rgw.start();
    }
    let back = await loupe.client.project({ sessionId: "direct-3", result: { toolName: "bash", parts: [{ content: { case: "text", value: small } }] } });
    for (let attempt = 0; !back.archived && attempt < 20; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      back = await loupe.client.project({ sessionId: "direct-3", result: { toolName: "bash", parts: [{ content: { case: "text", value: small } }] } });
    }
    assert.equal(back.archived, true);
  });

  it("refuses to start with direct puts and no S3 bucket, naming what to set", async () => {
    const refused = startLoupeProcess(["gateway"], {
      LOUPE_GATEWAY_PUTS: "direct",
      LOUPE_ARCHIVE_BACKEND: "lmdb",
      LOUPE_GRPC_PORT: String(await freePort()),
      LOUPE_HTTP_PORT: String(await freePort()),
    });
    assert.notEqual(await refused.exited, 0);
    assert.ok(
      refused.lines.some((line) => line.includes("LOUPE_GATEWAY_PUTS=direct") && line.includes("LOUPE_ARCHIVE_BACKEND=s3")),
      refused.lines.join("\n"),
    );
  });
});
