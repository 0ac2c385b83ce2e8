import { createLogger, onShutdownSignal } from "@loupe/runtime";
import { startTelemetry } from "@loupe/telemetry";
import { loadServeConfig } from "./serve-config.js";
import { startEmbedded } from "./serve.js";

/** `loupe serve`: embedded Loupe until SIGTERM/SIGINT. */
export async function serveCommand(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadServeConfig(env);
  const logger = createLogger({ service: "loupe", level: config.gateway.logLevel });
  const telemetry = startTelemetry({ serviceName: "loupe", env });
  const loupe = await startEmbedded(config, env, logger, () => telemetry.metricsText());
  onShutdownSignal(async (signal) => {
    logger.info("shutting down", { signal });
    await loupe.stop();
    await telemetry.shutdown();
  });
}
