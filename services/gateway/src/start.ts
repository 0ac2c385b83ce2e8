import { createHealthReporter, createReflectionServices, registerService, startGrpcServer } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { ConversationService, Health, ProjectionService, RulesService } from "@loupe/proto";
import type { Summarizer } from "@loupe/conversation";
import { createSummarizerFor } from "@loupe/summarizer";
import { createJetStreamBus, defaultStreamConfig, type Bus } from "@loupe/events";
import { createSessionStore } from "@loupe/session-store";
import { startHttpServer, type Logger } from "@loupe/runtime";
import { createArchiveClient, type ArchiveClient } from "./archive-client.js";
import { loadRedactionRules } from "./load-redaction-rules.js";
import { createRulesHandlers } from "./rules-handlers.js";
import { createSourceRules, type SourceRule } from "@loupe/rules";
import { createConversationHandlers } from "./conversation/conversation-handlers.js";
import { createHttpRoutes } from "./http-routes.js";
import { loadViewSpecs } from "./load-view-specs.js";
import { createPathRevisions } from "./path-revisions.js";
import { createMemoryStateStore, createRedisStateStore, type StateStore } from "@loupe/state-store";
import { INSECURE_DEFAULT_SECRET, type GatewayConfig } from "./config.js";
import { createProjectionHandlers, LOCAL_TENANT, type GatewayCounters } from "./projection-handlers.js";
import { createRestApi } from "./rest-api.js";
import { deleteResults } from "./delete-results.js";

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
  /** Defaults to Redis at config.redisUrl, or in-process state when unset. */
  state?: StateStore;
  /** Defaults to a gRPC client of config.archiveAddress. */
  archive?: ArchiveClient;
  /** The event bus turns are published to; defaults to JetStream at config.natsUrl (none when unset: AppendTurns is refused). */
  bus?: Bus;
  /** The summarizer a source's rule selects, for Compact's fallback; defaults to the rule's settings over config.summarizer. */
  summarizerFor?: (rule: SourceRule) => Summarizer;
}

const DAY_MS = 24 * 60 * 60 * 1000;


function createState(config: GatewayConfig, logger: Logger): StateStore {
  if (config.redisUrl !== undefined) return createRedisStateStore({ url: config.redisUrl });
  logger.warn("LOUPE_REDIS_URL is unset: revisions are kept in this process only (one gateway replica)");
  return createMemoryStateStore();
}

/** Starts the gateway: ProjectionService, Health and reflection over gRPC; GET /healthz over HTTP. */
export async function startGateway(config: GatewayConfig, deps: GatewayDeps): Promise<GatewayHandle> {
  const { logger } = deps;
  if (config.resultIdSecret === INSECURE_DEFAULT_SECRET) logger.warn("LOUPE_RESULT_ID_SECRET is unset: result ids use a public default key");
  const archive = deps.archive ?? createArchiveClient(config.archiveAddress, config.maxResultBytes);
  const ownState = deps.state === undefined;
  const state = deps.state ?? createState(config, logger);
  const sourceRules = createSourceRules(state);
  const rulesHandlers = createRulesHandlers(sourceRules, LOCAL_TENANT);
  const counters: GatewayCounters = { failOpen: 0 };
  const tokenCounters = { o200k_base: createTokenCounter("o200k_base"), cl100k_base: createTokenCounter("cl100k_base") };
  const ownBus = deps.bus === undefined && config.natsUrl !== undefined;
  const bus = deps.bus ?? (config.natsUrl === undefined ? undefined : await createJetStreamBus({ servers: config.natsUrl, name: "loupe-gateway" }));
  if (bus === undefined) logger.warn("LOUPE_NATS_URL is unset: AppendTurns is refused (turns could not reach the note-worker)");
  else await bus.ensureStream(defaultStreamConfig());
  const sessions = createSessionStore(state);
  const chooseSummarizer = createSummarizerFor(config.summarizer, process.env);
  const conversationHandlers = createConversationHandlers(
    {
      archive,
      sessions,
      rules: sourceRules,
      bus,
      counter: tokenCounters.o200k_base,
      summarizerFor: deps.summarizerFor ?? ((rule) => chooseSummarizer(rule.summarizer)),
      defaultContextWindowTokens: config.contextWindowTokens,
      maxAppendBytes: config.maxResultBytes,
      logger,
      now: () => new Date(),
    },
    LOCAL_TENANT,
  );
  const health = createHealthReporter([ProjectionService.typeName, ConversationService.typeName]);
  const { handlers, projectText } = createProjectionHandlers(
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
      redactionRules: await loadRedactionRules(config.redaction, config.redactionRulesFile),
      pathRevisions: createPathRevisions(state, config.retentionDays * DAY_MS),
      sourceRules,
      state,
      sessions,
      logger,
    },
    logger,
    counters,
  );
  const grpc = await startGrpcServer({
    host: config.grpcHost,
    port: config.grpcPort,
    maxResultBytes: config.maxResultBytes,
    services: [
      health.registration,
      registerService(ProjectionService, handlers),
      registerService(RulesService, rulesHandlers),
      registerService(ConversationService, conversationHandlers),
      ...createReflectionServices([ProjectionService, RulesService, ConversationService, Health]),
    ],
    onError: (error, method) => logger.error("gateway call failed", { method, error }),
  });
  const restApi = createRestApi({ tenant: LOCAL_TENANT, deleteResults: (request, signal) => deleteResults(request, LOCAL_TENANT, archive, signal, sessions) });
  const routes = createHttpRoutes({ handlers, projectText, rulesHandlers, conversationHandlers, restApi, sourceRules, state, config, counter: tokenCounters.o200k_base, logger });
  const http = await startHttpServer({ host: config.httpHost, port: config.httpPort, isHealthy: () => health.isServing(), routes, onError: (error) => logger.error("http request failed", { error }) });
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
      if (ownBus) await bus?.close();
      if (ownState) await state.close();
    },
  };
}
