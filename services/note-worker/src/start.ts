import type { Summarizer } from "@loupe/conversation";
import { createSummarizerFor } from "@loupe/summarizer";
import { defaultStreamConfig, LOUPE_STREAM, type Bus, type Subscription } from "@loupe/events";
import { createHealthReporter, DEFAULT_MAX_RESULT_BYTES, startGrpcServer } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { createSourceRules, type SourceRule } from "@loupe/rules";
import { startHttpServer, type Logger } from "@loupe/runtime";
import { createSessionStore } from "@loupe/session-store";
import { createMemoryStateStore, createRedisStateStore, type StateStore } from "@loupe/state-store";
import type { NoteWorkerConfig } from "./config.js";
import { deadLetterStreamConfig } from "./dead-letter.js";
import { handleEvent, type EventOutcome } from "./handle-event.js";
import { createTurnReader, type TurnReader } from "./turn-reader.js";

export { loadConfig, DEFAULT_NATS_URL } from "./config.js";
export type { NoteWorkerConfig } from "./config.js";
export type { EventOutcome } from "./handle-event.js";
export { DEAD_LETTER_STREAM } from "./dead-letter.js";

/** What the composition root supplies. */
export interface NoteWorkerDeps {
  logger: Logger;
  bus: Bus;
  /** Notes, rules and sessions; defaults to Redis at config.redisUrl, or in-process state when unset. */
  state?: StateStore;
  /** The turn logs; defaults to the archive's gRPC ReadTurns at config.archiveAddress. */
  turns?: TurnReader;
  /** The summarizer a source's rule selects; defaults to the rule's settings over config.summarizer (extractive when none). */
  summarizerFor?: (rule: SourceRule) => Summarizer;
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
 * Starts the note-worker: ensures the event and dead-letter streams, creates or binds the durable consumer
 * shared by all replicas, keeps each session's note up to date, and serves Health and /healthz.
 */
export async function startNoteWorker(config: NoteWorkerConfig, deps: NoteWorkerDeps): Promise<NoteWorkerHandle> {
  const { logger, bus } = deps;
  await bus.ensureStream(defaultStreamConfig());
  await bus.ensureStream(deadLetterStreamConfig());
  const ownState = deps.state === undefined;
  const state = deps.state ?? (config.redisUrl === undefined ? createMemoryStateStore() : createRedisStateStore({ url: config.redisUrl }));
  const turns = deps.turns ?? createTurnReader(config.archiveAddress, DEFAULT_MAX_RESULT_BYTES);
  const counter = createTokenCounter();
  const chooseSummarizer = createSummarizerFor(config.summarizer, process.env, { countTokens: (text) => counter.count(text) });
  const handlerDeps = {
    bus,
    durable: config.durableName,
    maxDeliver: config.maxDeliver,
    logger,
    updater: {
      sessions: createSessionStore(state),
      rules: createSourceRules(state),
      turns,
      summarizerFor: deps.summarizerFor ?? ((rule: SourceRule) => chooseSummarizer(rule.summarizer)),
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
  const grpc = serve ? await startGrpcServer({ host: config.grpcHost, port: config.grpcPort, maxResultBytes: 1024 * 1024, services: [health.registration] }) : undefined;
  const http = serve ? await startHttpServer({ host: config.httpHost, port: config.httpPort, isHealthy: () => health.isServing() }) : undefined;
  logger.info("note-worker started", { durable: config.durableName, workerId: config.workerId, grpcPort: grpc?.port, httpPort: http?.port });
  return {
    grpcPort: grpc?.port ?? 0,
    httpPort: http?.port ?? 0,
    async stop() {
      health.shutdown();
      await subscription.stop();
      await grpc?.shutdown();
      await http?.close();
      if (deps.turns === undefined) turns.close();
      if (ownState) await state.close();
    },
  };
}
