// Traces and metrics from real processes: an OTLP/HTTP JSON receiver in the test stands in for the
// collector. Distributed mode (archive on RGW, gateway, note-worker; NATS and Redis) and `loupe serve`.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { LOUPE_STREAM } from "@loupe/events";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ConversationService, HistoryFormat, ProjectionService, RulesService } from "@loupe/proto";
import { freePort, removeBucket, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { eventually } from "../support/eventually.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver.js";
import { metricsOf, sample } from "../support/prometheus-text.js";

const NATS_URL = "nats://127.0.0.1:4222";
const SERVER = 2;
const CLIENT = 3;

const logOf = (lines: number) =>
  Array.from({ length: lines }, (_, line) => `${String(line + 1)}: compiled module_${String(line % 17)} in ${String(line * 3)} ms`).join("\n");

/** The OTEL_* settings a user sets: where the collector is, over OTLP/HTTP JSON, exported quickly. */
const otelEnv = (receiver: OtlpReceiver): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "100",
  OTEL_METRIC_EXPORT_INTERVAL: "1000",
});

function only(spans: readonly ReceivedSpan[], match: Partial<Pick<ReceivedSpan, "name" | "service" | "kind" | "traceId" | "parentSpanId">>): ReceivedSpan {
  const found = spans.filter((span) => Object.entries(match).every(([key, value]) => span[key as keyof ReceivedSpan] === value));
  assert.equal(found.length, 1, `one span like ${JSON.stringify(match)}; have ${spans.map((span) => `${span.service}:${span.name}`).join(", ")}`);
  return found[0]!;
}

describe("observability: one trace across gateway, archive and note-worker, and /metrics on each", () => {
  const run = randomUUID().slice(0, 8);
  const bucket = `loupe-otel-${run}`;
  const durable = `otel-${run}`;
  let receiver: OtlpReceiver;
  const processes: LoupeProcess[] = [];
  const httpPorts = { archive: 0, gateway: 0, noteWorker: 0 };
  let projection: GrpcClient<typeof ProjectionService>;
  let conversation: GrpcClient<typeof ConversationService>;

  before(async () => {
    receiver = await startOtlpReceiver();
    const ports = { archive: await freePort(), gateway: await freePort() };
    httpPorts.archive = await freePort();
    httpPorts.gateway = await freePort();
    httpPorts.noteWorker = await freePort();
    const archive = startLoupeProcess(["archive"], {
      ...otelEnv(receiver),
      ...s3ProcessEnv(s3TestEnv(), bucket),
      LOUPE_GRPC_PORT: String(ports.archive),
      LOUPE_HTTP_PORT: String(httpPorts.archive),
    });
    const gateway = startLoupeProcess(["gateway"], {
      ...otelEnv(receiver),
      LOUPE_ARCHIVE_ADDR: `127.0.0.1:${String(ports.archive)}`,
      LOUPE_NATS_URL: NATS_URL,
      LOUPE_REDIS_URL: "redis://127.0.0.1:6379",
      LOUPE_GRPC_PORT: String(ports.gateway),
      LOUPE_HTTP_PORT: String(httpPorts.gateway),
      LOUPE_RESULT_ID_SECRET: `otel-${run}`,
    });
    const noteWorker = startLoupeProcess(["note-worker"], {
      ...otelEnv(receiver),
      LOUPE_ARCHIVE_ADDR: `127.0.0.1:${String(ports.archive)}`,
      LOUPE_NATS_URL: NATS_URL,
      LOUPE_REDIS_URL: "redis://127.0.0.1:6379",
      LOUPE_NOTE_WORKER_DURABLE: durable,
      LOUPE_NOTE_WORKER_START_AT: "new",
      LOUPE_GRPC_PORT: String(await freePort()),
      LOUPE_HTTP_PORT: String(httpPorts.noteWorker),
    });
    processes.push(archive, gateway, noteWorker);
    await Promise.all([archive.waitFor(/archive started/), gateway.waitFor(/gateway started/), noteWorker.waitFor(/note-worker started/)]);
    projection = createGrpcClient(ProjectionService, `127.0.0.1:${String(ports.gateway)}`, { maxResultBytes: 64 * 1024 * 1024 });
    conversation = createGrpcClient(ConversationService, `127.0.0.1:${String(ports.gateway)}`, { maxResultBytes: 64 * 1024 * 1024 });
  });

  after(async () => {
    projection.close();
    conversation.close();
    await Promise.all(processes.map((child) => child.stop()));
    await receiver.close();
    const connection = await connect({ servers: NATS_URL });
    await (await jetstreamManager(connection)).consumers.delete(LOUPE_STREAM, durable).catch(() => undefined);
    await connection.close();
    await removeBucket(s3TestEnv(), bucket);
  });

  it("one Project: the gateway's RPC span, Loupe's project span with its attributes, and the archive's spans, in one trace", async () => {
    const sessionId = `otel-p-${run}`;
    const answer = await projection.project({
      sessionId,
      source: "otel-app",
      result: { toolName: "bash", argsJson: JSON.stringify({ command: "make" }), parts: [{ content: { case: "text", value: logOf(2000) } }] },
    });
    assert.equal(answer.archived, true);
    const rpc = await eventually(
      async () => receiver.spans.find((span) => span.name === "grpc.loupe.v1.ProjectionService/Project" && span.kind === SERVER),
      20_000,
      100,
    );
    assert.equal(rpc.service, "loupe-gateway");
    assert.equal(rpc.attributes["rpc.system"], "grpc");
    assert.equal(rpc.attributes["rpc.grpc.status_code"], 0);
    const trace = await eventually(
      async () => {
        const spans = receiver.spans.filter((span) => span.traceId === rpc.traceId);
        return spans.some((span) => span.name === "archive.put") ? spans : undefined;
      },
      20_000,
      100,
    );
    const projectSpan = only(trace, { name: "loupe.project", parentSpanId: rpc.spanId });
    assert.deepEqual(
      {
        tenant: projectSpan.attributes["loupe.tenant"],
        source: projectSpan.attributes["loupe.source"],
        session: projectSpan.attributes["loupe.session_id"],
        kind: projectSpan.attributes["loupe.kind"],
        resultId: projectSpan.attributes["loupe.result_id"],
        archived: projectSpan.attributes["loupe.archived"],
        failOpen: projectSpan.attributes["loupe.fail_open"],
      },
      { tenant: "local", source: "otel-app", session: sessionId, kind: "command", resultId: answer.resultId, archived: true, failOpen: false },
    );
    const usage = answer.usage!;
    assert.equal(projectSpan.attributes["loupe.original_tokens"], usage.originalTokens);
    assert.equal(projectSpan.attributes["loupe.projected_tokens"], usage.projectedTokens);
    assert.equal(projectSpan.attributes["loupe.saved_tokens"], usage.savedTokens);
    assert.ok(usage.savedTokens > 0);
    // gateway → archive: the client span in the gateway, the server span and archive.put in the archive, chained.
    const putClient = only(trace, { name: "grpc.loupe.v1.ArchiveService/Put", kind: CLIENT });
    assert.equal(putClient.service, "loupe-gateway");
    const putServer = only(trace, { name: "grpc.loupe.v1.ArchiveService/Put", kind: SERVER, parentSpanId: putClient.spanId });
    assert.equal(putServer.service, "loupe-archive");
    const put = only(trace, { name: "archive.put", parentSpanId: putServer.spanId });
    assert.equal(put.service, "loupe-archive");
    // The stores' calls are child spans too: S3 under the archive's put, Redis under the gateway's work.
    const s3Calls = await eventually(async () => {
      const calls = receiver.spans.filter((span) => span.traceId === rpc.traceId && span.name.startsWith("S3."));
      return calls.some((span) => span.name === "S3.PutObject") ? calls : undefined;
    }, 20_000);
    for (const call of s3Calls) {
      assert.equal(call.service, "loupe-archive");
      assert.equal(call.kind, CLIENT);
      assert.equal(call.attributes["rpc.system"], "aws-api");
    }
    const ids = new Set(receiver.spans.filter((span) => span.traceId === rpc.traceId).map((span) => span.spanId));
    assert.ok(
      s3Calls.every((call) => ids.has(call.parentSpanId)),
      "every S3 span has its parent in the trace",
    );
    const redis = trace.filter((span) => span.name.startsWith("redis.") && span.service === "loupe-gateway");
    assert.ok(redis.length > 0, "the gateway's Redis calls are in the trace");
    assert.equal(redis[0]?.attributes["db.system.name"], "redis");
  });

  it("one AppendTurns: the trace goes on over NATS into the note-worker, and from there to the archive", async () => {
    const sessionId = `otel-t-${run}`;
    await conversation.appendTurns({
      sessionId,
      source: "otel-app",
      contextWindowTokens: 2000,
      turns: Array.from({ length: 6 }, (_, index) => ({
        seq: index + 1,
        role: index % 2 === 0 ? "user" : "assistant",
        parts: [{ content: { case: "text", value: `step ${String(index + 1)}: ${logOf(30)}` } }],
      })),
    });
    const rpc = await eventually(
      async () => receiver.spans.find((span) => span.name === "grpc.loupe.v1.ConversationService/AppendTurns" && span.kind === SERVER),
      20_000,
      100,
    );
    const update = await eventually(
      async () => receiver.spans.find((span) => span.traceId === rpc.traceId && span.name === "note-worker.update_note" && span.attributes["loupe.seq"] === 6),
      30_000,
      100,
    );
    assert.equal(update.service, "loupe-note-worker");
    assert.equal(update.attributes["loupe.session_id"], sessionId);
    const handled = only(
      receiver.spans.filter((span) => span.traceId === rpc.traceId),
      { name: "note-worker.handle_event", spanId: update.parentSpanId } as Partial<ReceivedSpan>,
    );
    assert.equal(handled.attributes["messaging.system"], "nats");
    // The note-worker read the turn log: its client span and the archive's read_turns, in the same trace.
    const read = await eventually(
      async () => receiver.spans.find((span) => span.traceId === rpc.traceId && span.name === "archive.read_turns" && span.service === "loupe-archive"),
      20_000,
      100,
    );
    assert.ok(read);
  });

  it("GET /metrics on each service shows its counters moving, open without a token", async () => {
    const gateway = await metricsOf(httpPorts.gateway);
    assert.equal(sample(gateway, "loupe_projections_total", { kind: "command", source: "otel-app", archived: "true" }), 1);
    assert.ok((sample(gateway, "loupe_projection_saved_tokens_total", { kind: "command" }) ?? 0) > 0);
    assert.ok((sample(gateway, "loupe_turns_appended_total", { source: "otel-app" }) ?? 0) >= 6);
    assert.ok((sample(gateway, "rpc_server_duration_count", { rpc_method: "Project" }) ?? 0) >= 1, gateway);
    const archive = await metricsOf(httpPorts.archive);
    assert.ok((sample(archive, "loupe_archive_put_duration_count", { operation: "put", outcome: "ok" }) ?? 0) >= 1, archive);
    const worker = await eventually(async () => {
      const text = await metricsOf(httpPorts.noteWorker);
      // Six turn events of one session: one run takes the session, the rest find it taken (deferred) or seen.
      const handled = ["acked", "deferred"].reduce((total, outcome) => total + (sample(text, "loupe_events_handled_total", { outcome }) ?? 0), 0);
      return handled >= 6 && (sample(text, "loupe_note_updates_total") ?? 0) >= 1 ? text : undefined;
    }, 20_000);
    assert.ok(worker.includes("loupe_events_handled_total"));
    assert.ok(sample(worker, "loupe_events_pending") !== undefined, "JetStream's pending count, as of the latest delivery");
  });
});

describe("observability: `loupe serve` exports the same spans from one process", () => {
  let receiver: OtlpReceiver;
  let loupe: EmbeddedLoupe;
  before(async () => {
    receiver = await startOtlpReceiver();
    loupe = await startEmbeddedLoupe(otelEnv(receiver));
  });
  after(async () => {
    await loupe.stop();
    await receiver.close();
  });

  it("one Project gives one trace with the gateway's and the in-process archive's spans", async () => {
    const answer = await loupe.client.project({
      sessionId: "otel-embedded",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: logOf(1500) } }] },
    });
    assert.equal(answer.archived, true);
    const trace = await eventually(
      async () => {
        const rpc = receiver.spans.find((span) => span.name === "grpc.loupe.v1.ProjectionService/Project" && span.kind === SERVER);
        const spans = rpc === undefined ? [] : receiver.spans.filter((span) => span.traceId === rpc.traceId);
        return spans.some((span) => span.name === "archive.put") ? spans : undefined;
      },
      20_000,
      100,
    );
    assert.ok(trace.every((span) => span.service === "loupe"));
    assert.equal(only(trace, { name: "loupe.project" }).attributes["loupe.result_id"], answer.resultId);
    assert.equal(sample(await metricsOf(loupe.httpPort), "loupe_projections_total", { kind: "command", archived: "true" }), 1);
  });

  it("the history cut's span carries the tokens it saved the request (seed 002), and its counters move", async () => {
    const rules = createGrpcClient(RulesService, `127.0.0.1:${String(loupe.grpcPort)}`, { maxResultBytes: 1024 * 1024 });
    await rules.setSourceLimit({ source: "otel-cut", limit: { keepLimitChars: 8000 } });
    rules.close();
    const history = new TextEncoder().encode(
      JSON.stringify({
        model: "claude",
        messages: [
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "make" } }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: logOf(1000) }] },
        ],
      }),
    );
    const cut = await loupe.client.cutHistory({ source: "otel-cut", format: HistoryFormat.ANTHROPIC, historyJson: history });
    assert.ok(cut.savedTokens > 0);
    const span = await eventually(async () => receiver.spans.find((candidate) => candidate.name === "loupe.cut_history"), 20_000, 100);
    assert.equal(span.attributes["loupe.saved_tokens"], cut.savedTokens);
    assert.equal(span.attributes["loupe.cut_results"], 1);
    const text = await metricsOf(loupe.httpPort);
    assert.equal(sample(text, "loupe_history_cut_saved_tokens_total"), cut.savedTokens);
    assert.equal(sample(text, "loupe_history_cuts_total", { cut: "true" }), 1);
  });
});
