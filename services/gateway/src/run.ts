import { createLogger, onShutdownSignal } from "@loupe/runtime";
import { startTelemetry } from "@loupe/telemetry";
import { loadConfig } from "./config.js";
import { startGateway } from "./start.js";

/**
 * Runs the gateway as its own process: config from `env`, telemetry, the
 * service, and a graceful stop on SIGTERM/SIGINT.
 */
export async function runGatewayProcess(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({ service: "gateway", level: config.logLevel });
  const telemetry = startTelemetry({ serviceName: "loupe-gateway", exporter: env["OTEL_EXPORTER_OTLP_ENDPOINT"] ? "otlp" : "none" });
  const gateway = await startGateway(config, { logger });
  onShutdownSignal(async (signal) => {
    logger.info("shutting down", { signal });
    await gateway.stop();
    await telemetry.shutdown();
  });
}
