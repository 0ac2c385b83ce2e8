import type { Summarizer } from "@loupe/conversation";
import { defaultStreamConfig, LOUPE_STREAM, type Bus, type Subscription } from "@loupe/events";
import { createHealthReporter, startGrpcServer } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { createSourceRules, type SourceRule } from "@loupe/rules";
import { startHttpServer, type Logger } from "@loupe/runtime";
import { createSessionStore } from "@loupe/session-store";
import type { StateStore } from "@loupe/state-store";
import type { NoteWorkerConfig } from "./config.js";
import { deadLetterStreamConfig } from "./dead-letter.js";
import { handleEvent, type EventOutcome } from "./handle-event.js";
import type { TurnReader } from "./turn-reader.js";

export { loadConfig, DEFAULT_NATS_URL } from "./config.js";
export type { NoteWorkerConfig } from "./config.js";
export type { EventOutcome } from "./handle-event.js";
export { DEAD_LETTER_STREAM } from "./dead-letter.js";
export { createTurnReader } from "./turn-reader.js";
export type { TurnReader } from "./turn-reader.js";

/**
 * Everything the note-worker talks to, built by its composition root (`run.ts` for `loupe
 * note-worker`, `services/loupe` for embedded mode), which also closes them after `stop()`.
 */
export interface NoteWorkerDeps {
  logger: Logger;
  bus: Bus;
  /** Notes, rules and sessions: Redis, or an in-process store. */
  state: StateStore;
  /** The turn logs (the archive's ReadTurns). */
  turns: TurnReader;
  /** The summarizer a source's rule selects. */
  summarizerFor: (rule: SourceRule) => Summarizer;
  /** Sees each handled message (tests, metrics). */
  onEvent?: (subject: string, outcome: EventOutcome) => void;
  /** Serve gRPC Health and GET /healthz on their own ports (default true; embedded mode relies on the gateway's). */
  endpoints?: boolean;
  /** This process's metrics for GET /metrics (the composition root's telemetry). */
  metricsText?: () => Promise<string>;
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
 * Starts the note-worker: ensures the event and dead-letter streams, creates or binds the durable consumer
 * shared by all replicas, keeps each session's note up to date, and serves Health and /healthz.
 */
export async function startNoteWorker(config: NoteWorkerConfig, deps: NoteWorkerDeps): Promise<NoteWorkerHandle> {
  const { logger, bus } = deps;
  await bus.ensureStream(defaultStreamConfig());
  await bus.ensureStream(deadLetterStreamConfig());
  const { state, turns } = deps;
  const counter = createTokenCounter();
  const handlerDeps = {
    bus,
    durable: config.durableName,
    maxDeliver: config.maxDeliver,
    logger,
    updater: {
      sessions: createSessionStore(state),
      rules: createSourceRules(state),
      turns,
      summarizerFor: deps.summarizerFor,
      countNoteTokens: (text: string) => counter.count(text),
      workerId: config.workerId,
      leaseMs: config.leaseMs,
      maxNoteTokens: config.maxNoteTokens,
      logger,
    },
  };
  const subscription: Subscription = await bus.consume(LOUPE_STREAM, {
    durable: config.durableName,
    filterSubject: "loupe.>",
    ackWaitMs: config.ackWaitMs,
    maxDeliver: config.maxDeliver,
    maxMessages: config.maxInFlight,
    startAt: config.startAt,
    handler: async (message) => {
      const outcome = await handleEvent(message, handlerDeps);
      deps.onEvent?.(message.subject, outcome);
    },
  });
  const health = createHealthReporter([HEALTH_SERVICE]);
  const serve = deps.endpoints !== false;
  const grpc = serve
    ? await startGrpcServer({ host: config.grpcHost, port: config.grpcPort, maxResultBytes: 1024 * 1024, services: [health.registration] })
    : undefined;
  const http = serve
    ? await startHttpServer({
        host: config.httpHost,
        port: config.httpPort,
        isHealthy: () => health.isServing(),
        ...(deps.metricsText === undefined ? {} : { metricsText: deps.metricsText }),
      })
    : undefined;
  logger.info("note-worker started", { durable: config.durableName, workerId: config.workerId, grpcPort: grpc?.port, httpPort: http?.port });
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
