import { createArchiveClient } from "@loupe/archive-client";
import { DEFAULT_MAX_RESULT_BYTES } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import type { SourceRule } from "@loupe/rules";
import { createLogger, onShutdownSignal } from "@loupe/runtime";
import { createMemoryStateStore } from "@loupe/state-store";
import { createSummarizerFor } from "@loupe/summarizer";
import { startTelemetry } from "@loupe/telemetry";
import type { Summarizer } from "@loupe/conversation";
import { loadConfig, type NoteWorkerConfig } from "./config.js";
import { startNoteWorker } from "./start.js";
import { createTurnReader } from "./turn-reader.js";

/** The summarizer each source's rule selects, over the worker's defaults; key references are read from `env`. */
export function noteWorkerSummarizers(config: NoteWorkerConfig, env: NodeJS.ProcessEnv): (rule: SourceRule) => Summarizer {
  const counter = createTokenCounter();
  const choose = createSummarizerFor(config.summarizer, env, { countTokens: (text) => counter.count(text) });
  return (rule) => choose(rule.summarizer);
}

/**
 * Runs the note-worker as its own process — the composition root of distributed mode: config from
 * `env`, telemetry, the adapters (JetStream, Redis or in-process state, the archive client), the
 * worker, and a graceful stop (consumer stopped, NATS drained, what it built closed).
 */
export async function runNoteWorkerProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({ service: "note-worker", level: config.logLevel });
  const telemetry = startTelemetry({ serviceName: "loupe-note-worker", env });
  // The NATS client loads here, not where `loupe serve` imports this module for its summarizers.
  const bus = await (await import("@loupe/events/jetstream")).createJetStreamBus({ servers: config.natsUrl, name: "loupe-note-worker" });
  // ioredis loads only when Redis is configured.
  const state =
    config.redisUrl === undefined ? createMemoryStateStore() : (await import("@loupe/state-store/redis")).createRedisStateStore({ url: config.redisUrl });
  const turns = createTurnReader(createArchiveClient(config.archiveAddress, DEFAULT_MAX_RESULT_BYTES, config.internalToken));
  const worker = await startNoteWorker(config, {
    logger,
    bus,
    state,
    turns,
    summarizerFor: noteWorkerSummarizers(config, env),
    metricsText: () => telemetry.metricsText(),
  });
  onShutdownSignal(async (signal) => {
    logger.info("shutting down", { signal });
    await worker.stop();
    turns.close();
    await bus.close();
    await state.close();
    await telemetry.shutdown();
  });
}
