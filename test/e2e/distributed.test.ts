import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { encodeEnvelope, LOUPE_STREAM } from "@loupe/events";
import { createJetStreamBus } from "@loupe/events/jetstream";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { ProjectionService } from "@loupe/proto";
import { freePort, removeBucket, rgwDir, rgwInstance, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess, type RgwInstance } from "@loupe/testing";
import { numberedLines } from "../support/fixtures.js";
import { linesOf, recoverOmission, textOf } from "../support/recover-omission.js";

const NATS_URL = "nats://127.0.0.1:4222";
const counter = createTokenCounter();

describe("distributed mode (three processes, archive on Ceph RGW)", () => {
  const run = randomUUID().slice(0, 8);
  // The fail-open test kills the shared radosgw process and starts it again (test files run one at a time).
  let rgw: RgwInstance;
  let archive: LoupeProcess;
  let gateway: LoupeProcess;
  let noteWorker: LoupeProcess;
  let client: GrpcClient<typeof ProjectionService>;
  const durable = `e2e-${run}`;

  before(async () => {
    const shared = s3TestEnv();
    rgw = rgwInstance(rgwDir(), Number(new URL(shared.endpoint).port));
    await rgw.start();
    const archivePort = await freePort();
    const gatewayPort = await freePort();
    const s3 = shared;
    archive = startLoupeProcess(["archive"], {
      ...s3ProcessEnv(s3, `loupe-e2e-${run}`),
      LOUPE_GRPC_PORT: String(archivePort),
      LOUPE_HTTP_PORT: String(await freePort()),
    });
    noteWorker = startLoupeProcess(["note-worker"], {
      LOUPE_NATS_URL: NATS_URL,
      LOUPE_NOTE_WORKER_DURABLE: durable,
      LOUPE_NOTE_WORKER_START_AT: "new",
      LOUPE_GRPC_PORT: String(await freePort()),
      LOUPE_HTTP_PORT: String(await freePort()),
      LOUPE_LOG_LEVEL: "debug",
    });
    gateway = startLoupeProcess(["gateway"], {
      LOUPE_ARCHIVE_ADDR: `127.0.0.1:${String(archivePort)}`,
      LOUPE_GRPC_PORT: String(gatewayPort),
      LOUPE_HTTP_PORT: String(await freePort()),
      LOUPE_RESULT_ID_SECRET: `e2e-${run}`,
      LOUPE_REDIS_URL: "redis://127.0.0.1:6379",
    });
    await Promise.all([archive.waitFor(/archive started/), noteWorker.waitFor(/note-worker started/), gateway.waitFor(/gateway started/)]);
    client = createGrpcClient(ProjectionService, `127.0.0.1:${String(gatewayPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
  });

  after(async () => {
    client.close();
    await Promise.all([gateway.stop(), archive.stop(), noteWorker.stop()]);
    const connection = await connect({ servers: NATS_URL });
    const manager = await jetstreamManager(connection);
    await manager.consumers.delete(LOUPE_STREAM, durable).catch(() => undefined);
    await connection.close();
    // Whatever happened, leave the shared RGW running for the tests after this one.
    await rgw.start();
    await removeBucket(s3TestEnv(), `loupe-e2e-${run}`);
  });

  it("projects a 5,000-line text and recovers exactly the omitted lines from S3", async () => {
    const original = numberedLines(5000);
    const response = await client.project({ sessionId: "d1", result: { toolName: "bash", parts: [{ content: { case: "text", value: original } }] } });
    assert.equal(response.archived, true);
    assert.ok(counter.count(textOf(response.parts)) <= 2000);
    const [omission] = response.omissions;
    assert.ok(omission?.startLine !== undefined && omission.endLine !== undefined);
    const recovered = await recoverOmission(client, omission);
    assert.equal(recovered.text, linesOf(original, omission.startLine, omission.endLine));
  });

  it("answers fail-open while the RGW process is down, and archives again once it is back", async () => {
    await rgw.killGateway();
    const small = numberedLines(700, "down");
    assert.ok(Buffer.byteLength(small) < 50 * 1024 && counter.count(small) > 2000);
    const down = await client.project({ sessionId: "d2", result: { toolName: "bash", parts: [{ content: { case: "text", value: small } }] } });
    assert.equal(down.archived, false);
    assert.equal(down.resultId, "");
    assert.equal(textOf(down.parts), small, "the input unchanged");

    const large = numberedLines(3000, "huge");
    const capped = await client.project({ sessionId: "d2", result: { toolName: "bash", parts: [{ content: { case: "text", value: large } }] } });
    assert.equal(capped.archived, false);
    assert.ok(Buffer.byteLength(textOf(capped.parts)) <= 50 * 1024, "the hard cap still holds");
    assert.match(textOf(capped.parts), /could not be saved/);
    assert.ok(
      capped.omissions.every((omission) => omission.continuationJson === ""),
      "no continuation for what was not saved",
    );

    await rgw.start();
    let back = await client.project({ sessionId: "d2", result: { toolName: "bash", parts: [{ content: { case: "text", value: small } }] } });
    for (let attempt = 0; !back.archived && attempt < 20; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      back = await client.project({ sessionId: "d2", result: { toolName: "bash", parts: [{ content: { case: "text", value: small } }] } });
    }
    assert.equal(back.archived, true);
    const [omission] = back.omissions;
    assert.ok(omission);
    assert.equal((await recoverOmission(client, omission)).text, linesOf(small, omission.startLine ?? 0, omission.endLine ?? 0));
  });

  it("keeps path revisions in Redis: a changed file says so, and the old snapshot is stale", async () => {
    const read = (content: string) =>
      client.project({
        sessionId: `rev-${run}`,
        result: { toolName: "Read", argsJson: JSON.stringify({ file_path: "src/app.ts" }), parts: [{ content: { case: "text", value: content } }] },
      });
    const first = await read(numberedLines(2000, "one"));
    const second = await read(numberedLines(2000, "two"));
    assert.match(textOf(second.parts), /^\[loupe\] src\/app\.ts changed since your last read/);
    const old = await client.recover({ resultId: first.resultId, startLine: 1, endLine: 2 });
    assert.equal(old.stale, true);
    assert.equal(old.newerResultId, second.resultId);
  });

  it("note-worker consumes events from JetStream with its durable consumer and acks them", async () => {
    const bus = await createJetStreamBus({ servers: NATS_URL });
    const id = randomUUID();
    await bus.publish(
      `loupe.test.published.${run}`,
      encodeEnvelope({ type: "test.published", id, tenant: "local", time: new Date().toISOString(), data: {} }),
      { msgId: id },
    );
    await bus.close();
    await noteWorker.waitFor(new RegExp(`"id":"${id}"`), 15_000);
    const connection = await connect({ servers: NATS_URL });
    const manager = await jetstreamManager(connection);
    let info = await manager.consumers.info(LOUPE_STREAM, durable);
    for (let attempt = 0; info.num_ack_pending > 0 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      info = await manager.consumers.info(LOUPE_STREAM, durable);
    }
    assert.equal(info.num_ack_pending, 0, "everything delivered was acked");
    assert.ok(info.delivered.stream_seq > 0);
    await connection.close();
  });
});
