import { createLogger, onShutdownSignal } from "@loupe/runtime";
import { startTelemetry } from "@loupe/telemetry";
import { loadConfig } from "./config.js";
import { createArchiveStore, startArchive } from "./start.js";

/**
 * Runs the archive as its own process: config from `env`, telemetry, the
 * service, and a graceful stop on SIGTERM/SIGINT.
 */
export async function runArchiveProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({ service: "archive", level: config.logLevel });
  const telemetry = startTelemetry({ serviceName: "loupe-archive", env });
  const store = await createArchiveStore(config);
  const archive = await startArchive(config, { logger, store, metricsText: () => telemetry.metricsText() });
  onShutdownSignal(async (signal) => {
    logger.info("shutting down", { signal });
    await archive.stop();
    // The file store's journal is checkpointed: a clean stop leaves every saved result fsynced as a file.
    await store.close?.();
    await telemetry.shutdown();
  });
}
