import { createHealthReporter, createReflectionServices, registerService, startGrpcServer } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { Health, ProjectionService } from "@loupe/proto";
import { startHttpServer, type Logger } from "@loupe/runtime";
import { createArchiveClient, type ArchiveClient } from "./archive-client.js";
import { loadViewSpecs } from "./load-view-specs.js";
import { INSECURE_DEFAULT_SECRET, type GatewayConfig } from "./config.js";
import { createProjectionHandlers, type GatewayCounters } from "./projection-handlers.js";

export { loadConfig, DEFAULT_GRPC_PORT, DEFAULT_HTTP_PORT, INSECURE_DEFAULT_SECRET } from "./config.js";
export type { GatewayConfig } from "./config.js";
export type { GatewayCounters } from "./projection-handlers.js";

/** A running gateway. */
export interface GatewayHandle {
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly counters: GatewayCounters;
  /** Health NOT_SERVING, drain gRPC calls, close HTTP and the archive channel. */
  stop(): Promise<void>;
}

/** What the composition root supplies. */
export interface GatewayDeps {
  logger: Logger;
  /** Defaults to a gRPC client of config.archiveAddress. */
  archive?: ArchiveClient;
}

/** Starts the gateway: ProjectionService, Health and reflection over gRPC; GET /healthz over HTTP. */
export async function startGateway(config: GatewayConfig, deps: GatewayDeps): Promise<GatewayHandle> {
  const { logger } = deps;
  if (config.resultIdSecret === INSECURE_DEFAULT_SECRET) logger.warn("LOUPE_RESULT_ID_SECRET is unset: result ids use a public default key");
  const archive = deps.archive ?? createArchiveClient(config.archiveAddress, config.maxResultBytes);
  const counters: GatewayCounters = { failOpen: 0 };
  const tokenCounters = { o200k_base: createTokenCounter("o200k_base"), cl100k_base: createTokenCounter("cl100k_base") };
  const health = createHealthReporter([ProjectionService.typeName]);
  const handlers = createProjectionHandlers(
    {
      archive,
      counter: tokenCounters.o200k_base,
      counterFor: (encoding) => tokenCounters[encoding],
      maxResultBytes: config.maxResultBytes,
      maxViewBytes: config.maxViewBytes,
      defaultBudgetTokens: config.defaultBudgetTokens,
      archiveTimeoutMs: config.archiveTimeoutMs,
      resultIdSecret: config.resultIdSecret,
      viewSpecs: await loadViewSpecs(config.viewSpecsFile),
    },
    logger,
    counters,
  );
  const grpc = await startGrpcServer({
    host: config.grpcHost,
    port: config.grpcPort,
    maxResultBytes: config.maxResultBytes,
    services: [health.registration, registerService(ProjectionService, handlers), ...createReflectionServices([ProjectionService, Health])],
    onError: (error, method) => logger.error("gateway call failed", { method, error }),
  });
  const http = await startHttpServer({ host: config.httpHost, port: config.httpPort, isHealthy: () => health.isServing() });
  logger.info("gateway started", { grpcPort: grpc.port, httpPort: http.port, archive: config.archiveAddress });
  return {
    grpcPort: grpc.port,
    httpPort: http.port,
    counters,
    async stop() {
      health.shutdown();
      await grpc.shutdown();
      await http.close();
      archive.close();
    },
  };
}
