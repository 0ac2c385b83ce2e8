// Tool-result events on real NATS: after a save the gateway publishes `loupe.result.projected.<tenant>.<session>`
// (metadata only, with the call's trace context), and the note-worker uses them: the handover note cites
// the result ids of the outputs its turns carried.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { decodeEnvelope, LOUPE_STREAM, resultSubject, type Bus, type BusMessage, type Subscription } from "@loupe/events";
import { createJetStreamBus } from "@loupe/events/jetstream";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ConversationService, ProjectionService } from "@loupe/proto";
import { freePort, removeBucket, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { eventually } from "../support/eventually.js";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlp-receiver.js";

const NATS_URL = "nats://127.0.0.1:4222";

describe("tool-result events (NATS JetStream, Redis, RGW)", () => {
  const run = randomUUID().slice(0, 8);
  const bucket = `loupe-results-${run}`;
  const durable = `results-${run}`;
  const sessionId = `results-${run}`;
  const processes: LoupeProcess[] = [];
  const received: BusMessage[] = [];
  let receiver: OtlpReceiver;
  let reader: Bus;
  let subscription: Subscription;
  let projection: GrpcClient<typeof ProjectionService>;
  let conversation: GrpcClient<typeof ConversationService>;

  before(async () => {
    receiver = await startOtlpReceiver();
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "100" };
    const ports = { archive: await freePort(), gateway: await freePort() };
    const shared = { LOUPE_NATS_URL: NATS_URL, LOUPE_REDIS_URL: "redis://127.0.0.1:6379", LOUPE_ARCHIVE_ADDR: `127.0.0.1:${String(ports.archive)}` };
    processes.push(
      startLoupeProcess(["archive"], {
        ...s3ProcessEnv(s3TestEnv(), bucket),
        LOUPE_GRPC_PORT: String(ports.archive),
        LOUPE_HTTP_PORT: String(await freePort()),
      }),
      startLoupeProcess(["gateway"], {
        ...otel,
        ...shared,
        LOUPE_GRPC_PORT: String(ports.gateway),
        LOUPE_HTTP_PORT: String(await freePort()),
        LOUPE_RESULT_ID_SECRET: `results-${run}`,
      }),
      startLoupeProcess(["note-worker"], {
        ...shared,
        LOUPE_NOTE_WORKER_DURABLE: durable,
        LOUPE_NOTE_WORKER_START_AT: "new",
        LOUPE_GRPC_PORT: String(await freePort()),
        LOUPE_HTTP_PORT: String(await freePort()),
      }),
    );
    await Promise.all(processes.map((child, index) => child.waitFor([/archive started/, /gateway started/, /note-worker started/][index] ?? /started/)));
    reader = await createJetStreamBus({ servers: NATS_URL });
    subscription = await reader.consume(LOUPE_STREAM, {
      durable: `reader-${run}`,
      filterSubject: resultSubject("local", sessionId),
      startAt: "new",
      handler: async (message) => {
        received.push(message);
        message.ack();
      },
    });
    projection = createGrpcClient(ProjectionService, `127.0.0.1:${String(ports.gateway)}`, { maxResultBytes: 64 * 1024 * 1024 });
    conversation = createGrpcClient(ConversationService, `127.0.0.1:${String(ports.gateway)}`, { maxResultBytes: 64 * 1024 * 1024 });
  });

  after(async () => {
    // The processes first: a `before` that failed part-way leaves the clients and the subscription unset.
    await Promise.all(processes.map((child) => child.stop()));
    projection.close();
    conversation.close();
    await subscription.stop();
    await reader.close();
    await receiver.close();
    const connection = await connect({ servers: NATS_URL });
    const manager = await jetstreamManager(connection);
    for (const name of [durable, `reader-${run}`]) await manager.consumers.delete(LOUPE_STREAM, name).catch(() => undefined);
    await connection.close();
    await removeBucket(s3TestEnv(), bucket);
  });

  it("publishes a saved result's metadata with its trace context, and the note cites the result id", async () => {
    const secret = `secret-line-${run}`;
    const output = Array.from({ length: 3000 }, (_, line) => (line === 1500 ? secret : `PASS test_${String(line)} (${String(line % 40)} ms)`)).join("\n");
    const answer = await projection.project({
      sessionId,
      source: "results-app",
      result: {
        toolUseId: "toolu_tests",
        toolName: "bash",
        argsJson: JSON.stringify({ command: "npm test" }),
        parts: [{ content: { case: "text", value: output } }],
      },
    });
    assert.ok(answer.archived && answer.resultId !== "");

    const [event] = await eventually(async () => (received.length > 0 ? received : undefined), 20_000);
    assert.ok(event);
    assert.equal(event.subject, `loupe.result.projected.local.${sessionId.replace(/[^A-Za-z0-9_-]/g, "")}`);
    const envelope = decodeEnvelope(event.data);
    assert.equal(envelope.type, "result.projected");
    assert.deepEqual(envelope.data, {
      sessionId,
      source: "results-app",
      toolUseId: "toolu_tests",
      resultId: answer.resultId,
      kind: "command",
      toolName: "bash",
      path: "",
      originalTokens: answer.usage?.originalTokens,
      projectedTokens: answer.usage?.projectedTokens,
      revision: answer.revision,
    });
    assert.ok(!new TextDecoder().decode(event.data).includes(secret), "metadata only, never the content");
    // The event carries the Project call's trace.
    const traceId = /^00-([0-9a-f]{32})-/.exec(event.headers["traceparent"] ?? "")?.[1];
    assert.ok(traceId, "a traceparent header");
    const rpc = await eventually(async () => receiver.spans.find((span) => span.name === "grpc.loupe.v1.ProjectionService/Project"), 20_000);
    assert.equal(rpc.traceId, traceId);

    // The runtime then streams the turns that carried the call and Loupe's view back.
    const view = answer.parts?.map((part) => (part.content.case === "text" ? part.content.value : "")).join("") ?? "";
    await conversation.appendTurns({
      sessionId,
      source: "results-app",
      contextWindowTokens: 4000,
      turns: [
        { seq: 1, role: "user", parts: [{ content: { case: "text", value: "Make the test suite pass." } }] },
        {
          seq: 2,
          role: "assistant",
          parts: [{ content: { case: "text", value: "Running the tests." } }],
          toolCalls: [{ toolUseId: "toolu_tests", name: "bash", argsJson: '{"command":"npm test"}' }],
        },
        { seq: 3, role: "user", toolResults: [{ toolUseId: "toolu_tests", toolName: "bash", parts: [{ content: { case: "text", value: view } }] }] },
        { seq: 4, role: "assistant", parts: [{ content: { case: "text", value: `All 3000 tests pass; ${"the log is long. ".repeat(80)}` } }] },
      ],
    });
    const note = await eventually(async () => {
      const { note: current } = await conversation.getNote({ sessionId });
      return current !== undefined && current.coveredThroughSeq >= 3 ? current : undefined;
    }, 30_000);
    assert.match(note.text, new RegExp(`Saved output of bash \\(turn:3\\): result ${answer.resultId.replace(/[-_]/g, "\\$&")} \\(command`));
  });
});
