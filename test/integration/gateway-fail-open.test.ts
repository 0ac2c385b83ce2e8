import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createArchiveClient } from "@loupe/archive-client";
import { loadConfig, startGateway, type GatewayHandle } from "@loupe/gateway";
import { gatewayConfigDeps } from "@loupe/gateway/run";
import { createMemoryStateStore } from "@loupe/state-store";
import { createGrpcClient, registerService, startGrpcServer, type GrpcServer } from "@loupe/grpc";
import { ArchiveService, ProjectionService } from "@loupe/proto";
import { createLogger } from "@loupe/runtime";
import { startTelemetry, type Telemetry } from "@loupe/telemetry";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@loupe/telemetry/testing";
import { numberedLines } from "../support/fixtures.js";
import { textOf } from "../support/recover-omission.js";

const quiet = createLogger({ service: "test", level: "error" });

describe("gateway fail-open (invariant 6)", () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry;
  let stalledArchive: GrpcServer;

  before(async () => {
    telemetry = startTelemetry({ serviceName: "test-gateway", spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // An archive that accepts the call and never answers: the put must give up at its time budget.
    stalledArchive = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      maxResultBytes: 1024 * 1024,
      services: [
        registerService(ArchiveService, {
          put: (_requests, context) => new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(new Error("aborted")))),
          read: () => Promise.reject(new Error("unused")),
          stat: () => Promise.reject(new Error("unused")),
          search: () => Promise.reject(new Error("unused")),
          delete: () => Promise.reject(new Error("unused")),
          appendTurns: () => Promise.reject(new Error("unused")),
          readTurns: () => Promise.reject(new Error("unused")),
          searchTurns: () => Promise.reject(new Error("unused")),
        }),
      ],
    });
  });
  after(async () => {
    await stalledArchive.shutdown(100);
    await telemetry.shutdown();
  });

  async function withGateway(
    archiveAddress: string,
    body: (
      gateway: GatewayHandle,
      project: (text: string) => ReturnType<ReturnType<typeof createGrpcClient<typeof ProjectionService>>["project"]>,
    ) => Promise<void>,
  ) {
    const config = { ...loadConfig({ LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: "0", LOUPE_ARCHIVE_TIMEOUT_MS: "300" }), archiveAddress };
    // As the gateway's composition root builds it, with an in-process state store and no bus.
    const state = createMemoryStateStore();
    const archive = createArchiveClient(archiveAddress, config.maxResultBytes);
    const gateway = await startGateway(config, { logger: quiet, state, archive, bus: undefined, ...(await gatewayConfigDeps(config, {})) });
    const client = createGrpcClient(ProjectionService, `127.0.0.1:${String(gateway.grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
    try {
      await body(gateway, (text) => client.project({ sessionId: "s", result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] } }));
    } finally {
      client.close();
      await gateway.stop();
      archive.close();
      await state.close();
    }
  }

  it("answers with the input unchanged when the archive is unreachable, records a span event and counts it", async () => {
    await withGateway("127.0.0.1:1", async (gateway, project) => {
      exporter.reset();
      const text = numberedLines(600);
      const response = await project(text);
      assert.equal(response.archived, false);
      assert.equal(textOf(response.parts), text);
      assert.equal(gateway.counters.failOpen, 1);
      const span = exporter.getFinishedSpans().find((finished) => finished.name === "loupe.project");
      assert.ok(span, "a loupe.project span");
      assert.ok(span.events.some((event) => event.name === "loupe.archive.put_failed"));
      assert.equal(span.attributes["loupe.archived"], false);
    });
  });

  it("gives up on a stalled archive at its time budget", async () => {
    await withGateway(`127.0.0.1:${String(stalledArchive.port)}`, async (gateway, project) => {
      const started = performance.now();
      const response = await project(numberedLines(600));
      const elapsed = performance.now() - started;
      assert.equal(response.archived, false);
      assert.ok(elapsed >= 250 && elapsed < 3000, `answered after ${elapsed.toFixed(0)} ms`);
      assert.equal(gateway.counters.failOpen, 1);
    });
  });

  it("keeps the hard cap when the input is larger than 50 KB", async () => {
    await withGateway("127.0.0.1:1", async (_gateway, project) => {
      const response = await project(numberedLines(5000));
      const view = textOf(response.parts);
      assert.equal(response.archived, false);
      assert.ok(Buffer.byteLength(view) <= 50 * 1024);
      assert.match(view, /^\[loupe\] lines [\d,]+–[\d,]+ of 5,000 omitted; the full result could not be saved$/m);
      assert.deepEqual(
        response.omissions.map((omission) => omission.continuationJson),
        [""],
      );
    });
  });
});
