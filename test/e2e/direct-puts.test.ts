// Distributed mode with LOUPE_GATEWAY_PUTS=direct: the gateway writes each saved result to the archive's
// bucket itself (the archive's own Put, run in the gateway's process), while reads and searches still go to
// the archive service — on a real Ceph RGW, with Redis and NATS (test/support/distributed-loupe.ts).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { freePort, startLoupeProcess } from "@loupe/testing";
import { startDistributedLoupe, type DistributedLoupe } from "../support/distributed-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { linesOf, recoverOmission, textOf } from "../support/recover-omission.js";

/** The value of `metric` with all of `labels` in a Prometheus text page; undefined when absent. */
function sample(text: string, metric: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match?.[1] !== metric) continue;
    if (Object.entries(labels).every(([key, value]) => (match[2] ?? "").includes(`${key}="${value}"`))) return Number(match[3]);
  }
  return undefined;
}

async function metricsOf(httpPort: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${String(httpPort)}/metrics`)).text();
}

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
