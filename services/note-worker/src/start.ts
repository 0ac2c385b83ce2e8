import { defaultStreamConfig, LOUPE_STREAM, type Bus, type Subscription } from "@loupe/events";
import { createHealthReporter, startGrpcServer } from "@loupe/grpc";
import { startHttpServer, type Logger } from "@loupe/runtime";
import type { NoteWorkerConfig } from "./config.js";
import { handleEvent, type EventOutcome } from "./handle-event.js";

export { loadConfig, DEFAULT_NATS_URL } from "./config.js";
export type { NoteWorkerConfig } from "./config.js";
export type { EventOutcome } from "./handle-event.js";

/** What the composition root supplies. */
export interface NoteWorkerDeps {
  logger: Logger;
  bus: Bus;
  /** Sees each handled message (tests, metrics). */
  onEvent?: (subject: string, outcome: EventOutcome) => void;
  /** Serve gRPC Health and GET /healthz on their own ports (default true; embedded mode relies on the gateway's). */
  endpoints?: boolean;
}

/** A running note-worker. */
export interface NoteWorkerHandle {
  /** 0 when endpoints are off. */
  readonly grpcPort: number;
  readonly httpPort: number;
  /** Stops consuming (in-flight messages finish), then health and servers. The bus stays open: its owner closes it. */
  stop(): Promise<void>;
}

const HEALTH_SERVICE = "loupe.v1.NoteWorker";

/**
 * Starts the note-worker: ensures the event stream, creates or binds the
 * durable consumer shared by all replicas, and serves Health and /healthz.
 */
export async function startNoteWorker(config: NoteWorkerConfig, deps: NoteWorkerDeps): Promise<NoteWorkerHandle> {
  const { logger, bus } = deps;
  await bus.ensureStream(defaultStreamConfig());
  const subscription: Subscription = await bus.consume(LOUPE_STREAM, {
    durable: config.durableName,
    filterSubject: "loupe.>",
    ackWaitMs: config.ackWaitMs,
    maxMessages: config.maxInFlight,
    handler: (message) => {
      const outcome = handleEvent(message, logger);
      deps.onEvent?.(message.subject, outcome);
      return Promise.resolve();
    },
  });
  const health = createHealthReporter([HEALTH_SERVICE]);
  const serve = deps.endpoints !== false;
  const grpc = serve ? await startGrpcServer({ host: config.grpcHost, port: config.grpcPort, maxResultBytes: 1024 * 1024, services: [health.registration] }) : undefined;
  const http = serve ? await startHttpServer({ host: config.httpHost, port: config.httpPort, isHealthy: () => health.isServing() }) : undefined;
  logger.info("note-worker started", { durable: config.durableName, grpcPort: grpc?.port, httpPort: http?.port });
  return {
    grpcPort: grpc?.port ?? 0,
    httpPort: http?.port ?? 0,
    async stop() {
      health.shutdown();
      await subscription.stop();
      await grpc?.shutdown();
      await http?.close();
    },
  };
}
