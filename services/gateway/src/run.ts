import { readFile } from "node:fs/promises";
import { AppError } from "@loupe/errors";
import { createArchiveClient, type ArchiveClient } from "@loupe/archive-client";
import { createLogger, onShutdownSignal, type Logger } from "@loupe/runtime";
import { createMemoryStateStore, type StateStore } from "@loupe/state-store";
import { createSummarizerFor } from "@loupe/summarizer";
import { createLocalLedger } from "@loupe/ledger";
import { startTelemetry } from "@loupe/telemetry";
import { loadConfig, type GatewayConfig } from "./config.js";
import { loadRedactionRules } from "./load-redaction-rules.js";
import { loadViewSpecs } from "./load-view-specs.js";
import { startGateway, type GatewayDeps } from "./start.js";

// Redis, NATS and their clients load only when configured (a gateway without them never needs them).
async function createState(config: GatewayConfig, logger: Logger): Promise<StateStore> {
  if (config.redisUrl !== undefined) return (await import("@loupe/state-store/redis")).createRedisStateStore({ url: config.redisUrl });
  logger.warn("LOUPE_REDIS_URL is unset: revisions are kept in this process only (one gateway replica)");
  return createMemoryStateStore();
}

/**
 * The PEM certificate chain and key of the public ports.
 * @throws AppError `invalid_argument` naming a file that cannot be read
 */
async function loadTls(certFile: string, keyFile: string): Promise<{ cert: Buffer; key: Buffer }> {
  const read = (file: string, name: string): Promise<Buffer> =>
    readFile(file).catch((error: unknown) => {
      throw new AppError("invalid_argument", `${name} cannot be read [file=${file}]`, { cause: error });
    });
  return { cert: await read(certFile, "LOUPE_TLS_CERT_FILE"), key: await read(keyFile, "LOUPE_TLS_KEY_FILE") };
}

/**
 * The gateway's configuration-driven dependencies — field views, redaction rules and the
 * summarizer chosen per rule (its key references read from `env`) — for a composition root that
 * brings its own state, archive and bus (this process's, or embedded mode's).
 */
export async function gatewayConfigDeps(
  config: GatewayConfig,
  env: NodeJS.ProcessEnv,
): Promise<Pick<GatewayDeps, "viewSpecs" | "redactionRules" | "summarizerFor" | "tls">> {
  const chooseSummarizer = createSummarizerFor(config.summarizer, env);
  const tls = config.tlsCertFile === undefined || config.tlsKeyFile === undefined ? undefined : await loadTls(config.tlsCertFile, config.tlsKeyFile);
  return {
    ...(tls === undefined ? {} : { tls }),
    viewSpecs: await loadViewSpecs(config.viewSpecsFile),
    redactionRules: await loadRedactionRules(config.redaction, config.redactionRulesFile),
    summarizerFor: (rule) => chooseSummarizer(rule.summarizer),
  };
}

/** The archive's own Put, run in this process over the archive's bucket (LOUPE_GATEWAY_PUTS=direct). */
export interface DirectPuts {
  put: ArchiveClient["put"];
  /** Stops what the Put needed (its store's connections). */
  close(): Promise<void>;
}

/** What a composition root brings to the gateway's process besides its environment. */
export interface GatewayProcessDeps {
  /** Starts the archive's Put in this process; required for LOUPE_GATEWAY_PUTS=direct (the `loupe` CLI brings it). */
  startDirectPuts?: (env: NodeJS.ProcessEnv) => Promise<DirectPuts>;
}

/**
 * The archive client: every call to the archive service at LOUPE_ARCHIVE_ADDR — but with
 * LOUPE_GATEWAY_PUTS=direct the saves, which this process then writes itself (one gRPC round trip less a save).
 * @throws AppError `invalid_argument` for LOUPE_GATEWAY_PUTS=direct without `startDirectPuts`
 */
async function createGatewayArchive(
  config: GatewayConfig,
  env: NodeJS.ProcessEnv,
  deps: GatewayProcessDeps,
): Promise<{ archive: ArchiveClient; close: () => Promise<void> }> {
  const remote = createArchiveClient(config.archiveAddress, config.maxResultBytes, config.internalToken);
  if (config.puts === "archive") return { archive: remote, close: async () => remote.close() };
  if (deps.startDirectPuts === undefined) {
    remote.close();
    throw new AppError("invalid_argument", "LOUPE_GATEWAY_PUTS=direct needs the archive's Put in this process: run the gateway with `loupe gateway`");
  }
  const direct = await deps.startDirectPuts(env).catch((error: unknown) => {
    remote.close();
    throw error;
  });
  return {
    archive: { ...remote, put: direct.put },
    close: async () => {
      remote.close();
      await direct.close();
    },
  };
}

/**
 * Runs the gateway as its own process — the composition root of distributed mode: config from
 * `env`, telemetry, the adapters (Redis or in-process state, the archive client, JetStream), the
 * service, and a graceful stop on SIGTERM/SIGINT that closes what it built.
 */
export async function runGatewayProcess(env: NodeJS.ProcessEnv, deps: GatewayProcessDeps = {}): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger({ service: "gateway", level: config.logLevel });
  const telemetry = startTelemetry({ serviceName: "loupe-gateway", env });
  const state = await createState(config, logger);
  const { archive, close: closeArchive } = await createGatewayArchive(config, env, deps);
  const bus =
    config.natsUrl === undefined
      ? undefined
      : await (await import("@loupe/events/jetstream")).createJetStreamBus({ servers: config.natsUrl, name: "loupe-gateway" });
  // The ledger every replica shares: Redis Streams beside the state (without Redis, this process's memory).
  const retentionMs = config.retentionDays * 24 * 60 * 60 * 1000;
  const ledger =
    config.redisUrl === undefined
      ? createLocalLedger({ retentionMsFor: () => retentionMs })
      : (await import("@loupe/ledger/redis")).createRedisLedger({ url: config.redisUrl, retentionMsFor: () => retentionMs });
  const gateway = await startGateway(config, {
    logger,
    state,
    archive,
    bus,
    ledger,
    ...(await gatewayConfigDeps(config, env)),
    metricsText: () => telemetry.metricsText(),
  });
  onShutdownSignal(async (signal) => {
    logger.info("shutting down", { signal });
    await gateway.stop();
    await closeArchive();
    await bus?.close();
    await ledger.close();
    await state.close();
    await telemetry.shutdown();
  });
}
