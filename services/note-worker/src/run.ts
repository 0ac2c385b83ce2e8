import { createJetStreamBus } from "@loupe/events";
import { createLogger, onShutdownSignal } from "@loupe/runtime";
import { startTelemetry } from "@loupe/telemetry";
import { loadConfig } from "./config.js";
import { startNoteWorker } from "./start.js";

/**
 * Runs the note-worker as its own process: config from `env`, telemetry,
 * JetStream, the worker, and a graceful stop (consumer stopped, NATS drained).
 */
export async function runNoteWorkerProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({ service: "note-worker", level: config.logLevel });
  const telemetry = startTelemetry({ serviceName: "loupe-note-worker", exporter: env["OTEL_EXPORTER_OTLP_ENDPOINT"] ? "otlp" : "none" });
  const bus = await createJetStreamBus({ servers: config.natsUrl, name: "loupe-note-worker" });
  const worker = await startNoteWorker(config, { logger, bus });
  onShutdownSignal(async (signal) => {
    logger.info("shutting down", { signal });
    await worker.stop();
    await bus.close();
    await telemetry.shutdown();
  });
}
