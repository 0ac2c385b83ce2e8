import { createHealthReporter, createReflectionServices, registerService, startGrpcServer } from "@loupe/grpc";
import { createTokenCounter } from "@loupe/projection";
import { ConversationService, Health, LedgerService, ProjectionService, RulesService, TokensService, type DeleteResultsRequest } from "@loupe/proto";
import type { Summarizer } from "@loupe/conversation";
import { defaultStreamConfig, type Bus } from "@loupe/events";
import type { CompiledRule, ViewSpec } from "@loupe/projection";
import { createSessionStore } from "@loupe/session-store";
import { logCallError, startHttpServer, type Logger } from "@loupe/runtime";
import type { ArchiveClient } from "@loupe/archive-client";
import { createRulesHandlers } from "./rules-handlers.js";
import { createSourceRules, type SourceRule } from "@loupe/rules";
import { createConversationHandlers } from "./conversation/conversation-handlers.js";
import { createHttpRoutes } from "./http-routes.js";
import { createPathRevisions } from "./path-revisions.js";
import type { StateStore } from "@loupe/state-store";
import { INSECURE_DEFAULT_SECRET, isLoopback, type GatewayConfig } from "./config.js";
import { createProjectionHandlers, type GatewayCounters } from "./projection-handlers.js";
import { createAuthenticator, requireAdmin } from "./auth/authenticator.js";
import { perTenant } from "./auth/per-tenant.js";
import { countMetric } from "@loupe/telemetry";
import { createResultEventPublisher } from "./result-events.js";
import { createLocalLedger, type Ledger } from "@loupe/ledger";
import { createLedgerHandlers } from "./ledger/ledger-handlers.js";
import { createLedgerRoute } from "./ledger/ledger-route.js";
import { createConsoleRoute } from "./console/console-route.js";
import { createLedgerRecorder } from "./ledger/record-ledger.js";
import { createAdmission, type AdmissionCounters } from "./admission/admission.js";
import { createRateLimit } from "./admission/rate-limit.js";
import { createTokenStore } from "./auth/token-store.js";
import { createTokensHandlers } from "./auth/tokens-handlers.js";
import { createRestApi } from "./rest-api.js";
import { deleteResults } from "./delete-results.js";
import { countThreadFailed, defaultTokenCountPool } from "./project/count-pool.js";

export { loadConfig, DEFAULT_GRPC_PORT, DEFAULT_HTTP_PORT, INSECURE_DEFAULT_SECRET } from "./config.js";
export type { GatewayConfig } from "./config.js";
export type { GatewayCounters } from "./projection-handlers.js";

/** A running gateway. */
export interface GatewayHandle {
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly counters: GatewayCounters;
  /** What admission control did: calls admitted, queued and shed. */
  readonly admission: AdmissionCounters;
  /** Health NOT_SERVING, drain gRPC calls, close HTTP (the root closes the adapters it built). */
  stop(): Promise<void>;
}

/**
 * Everything the gateway talks to, built by its composition root (`run.ts` for `loupe gateway`,
 * `services/loupe` for embedded mode), which also closes them after `stop()`.
 */
export interface GatewayDeps {
  logger: Logger;
  /** Rules, revisions, pins, notes, sessions: Redis, or an in-process store (one replica). */
  state: StateStore;
  archive: ArchiveClient;
  /** The event bus turns are published to; undefined: AppendTurns is refused. */
  bus: Bus | undefined;
  /** The summarizer a source's rule selects, for Compact's fallback. */
  summarizerFor: (rule: SourceRule) => Summarizer;
  /** Field views from configuration (LOUPE_VIEW_SPECS_FILE). */
  viewSpecs: readonly ViewSpec[];
  /** Secret patterns masked before anything is saved or shown; undefined = redaction off. */
  redactionRules: readonly CompiledRule[] | undefined;
  /** The public ports' certificate chain and key (PEM): gRPC and HTTP serve TLS. */
  tls?: { cert: Buffer; key: Buffer };
  /** This process's metrics for GET /metrics (the composition root's telemetry). */
  metricsText?: () => Promise<string>;
  /** The ledger (Redis Streams or files); default in memory, kept for the retention. */
  ledger?: Ledger;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Starts the gateway: ProjectionService, Health and reflection over gRPC; GET /healthz over HTTP. */
export async function startGateway(config: GatewayConfig, deps: GatewayDeps): Promise<GatewayHandle> {
  const { logger, archive, state, bus } = deps;
  if (config.resultIdSecret === INSECURE_DEFAULT_SECRET) logger.warn("LOUPE_RESULT_ID_SECRET is unset: result ids use a public default key");
  const sourceRules = createSourceRules(state);
  const tokens = createTokenStore(state, () => Date.now());
  // The tenant of every call comes from its credentials (with auth off: `local`).
  const auth = createAuthenticator(config.auth, config.adminToken, tokens);
  if (config.auth === "off" && !(isLoopback(config.grpcHost) && isLoopback(config.httpHost))) {
    logger.warn(
      "authentication is off (LOUPE_AUTH=off) on an address beyond this machine: anyone who reaches it can read every saved result and change every rule",
    );
  }
  const rulesHandlers = perTenant(auth, (tenant) => createRulesHandlers(sourceRules, tenant, state, deps.viewSpecs), {
    check: (method, _request, principal) => {
      if (method === "setSourceLimit") requireAdmin(principal, "changing an app's rule");
    },
  });
  // Bounded in-flight work and a per-tenant rate: overload is answered UNAVAILABLE or RESOURCE_EXHAUSTED, never fail-open.
  const admission = createAdmission({ maxInFlight: config.maxInFlight, maxWaitMs: config.admissionWaitMs });
  const rateLimit = createRateLimit(
    state,
    config.rateLimitPerSecond,
    () => Date.now(),
    () => {
      counters.rateLimited++;
      countMetric("loupe.rate_limited");
    },
  );
  const guards = { rateLimit, admit: <T>(call: () => Promise<T>) => admission.run(call) };
  const counters: GatewayCounters = { failOpen: 0, rateLimited: 0 };
  const tokenCounters = { o200k_base: createTokenCounter("o200k_base"), cl100k_base: createTokenCounter("cl100k_base") };
  if (bus === undefined) logger.warn("no event bus (LOUPE_NATS_URL is unset): AppendTurns is refused (turns could not reach the note-worker)");
  else await bus.ensureStream(defaultStreamConfig());
  const sessions = createSessionStore(state);
  // What Loupe does to each tenant's context (ListEntries, REST, MCP): Redis Streams or files, from the composition root.
  const ledger = deps.ledger ?? createLocalLedger({ retentionMsFor: () => config.retentionDays * DAY_MS });
  const recorder = createLedgerRecorder(ledger, logger);
  const publishResult = bus === undefined ? undefined : createResultEventPublisher(bus, logger);
  const conversationHandlers = perTenant(
    auth,
    (tenant) =>
      createConversationHandlers(
        {
          archive,
          sessions,
          rules: sourceRules,
          bus,
          counter: tokenCounters.o200k_base,
          summarizerFor: deps.summarizerFor,
          defaultContextWindowTokens: config.contextWindowTokens,
          maxAppendBytes: config.maxResultBytes,
          logger,
          now: () => new Date(),
          recorder,
        },
        tenant,
      ),
    guards,
  );
  const health = createHealthReporter([ProjectionService.typeName, ConversationService.typeName]);
  const { handlersFor, projectText, imageCuts, observeCut } = createProjectionHandlers(
    {
      archive,
      counter: tokenCounters.o200k_base,
      counterFor: (encoding) => tokenCounters[encoding],
      // The process's shared threads count as `tokenCounters` do.
      ...(config.countWorkers > 0
        ? { countPool: defaultTokenCountPool({ workers: config.countWorkers, onThreadFailure: countThreadFailed(logger) }), running: { calls: 0 } }
        : {}),
      maxResultBytes: config.maxResultBytes,
      maxViewBytes: config.maxViewBytes,
      defaultBudgetTokens: config.defaultBudgetTokens,
      archiveTimeoutMs: config.archiveTimeoutMs,
      resultIdSecret: config.resultIdSecret,
      viewSpecs: deps.viewSpecs,
      redactionRules: deps.redactionRules,
      pathRevisions: createPathRevisions(state, config.retentionDays * DAY_MS),
      sourceRules,
      state,
      sessions,
      logger,
      onArchiveSave: (ms) => admission.observeSave(ms, config.archiveTimeoutMs),
      onProjected: (tenant, projected) => {
        if (projected.saved) publishResult?.(tenant, projected.result);
        recorder.projection(tenant, projected);
      },
      recorder,
    },
    logger,
    counters,
  );
  const handlers = perTenant(auth, handlersFor, {
    ...guards,
    check: (method, request, principal) => {
      if (method === "deleteResults" && (request as DeleteResultsRequest).target.case === "tenant") requireAdmin(principal, "deleting a whole tenant");
    },
  });
  const tokensHandlers = createTokensHandlers(tokens, auth);
  const ledgerHandlers = perTenant(auth, (tenant) => createLedgerHandlers(ledger, tenant));
  const grpc = await startGrpcServer({
    host: config.grpcHost,
    port: config.grpcPort,
    maxResultBytes: config.maxResultBytes,
    ...(deps.tls === undefined ? {} : { tls: deps.tls }),
    services: [
      health.registration,
      registerService(ProjectionService, handlers),
      registerService(RulesService, rulesHandlers),
      registerService(ConversationService, conversationHandlers),
      registerService(TokensService, tokensHandlers),
      registerService(LedgerService, ledgerHandlers),
      ...createReflectionServices([ProjectionService, RulesService, ConversationService, TokensService, LedgerService, Health]),
    ],
    onError: (error, method) => logCallError(logger, "gateway call failed", error, { method }),
  });
  const restApi = createRestApi({ auth, deleteResults: (request, tenant, signal) => deleteResults(request, tenant, archive, signal, sessions) });
  const routes = createHttpRoutes({
    auth,
    handlers,
    projectText,
    imageCuts,
    observeCut,
    rulesHandlers,
    ledgerHandlers,
    conversationHandlers,
    restApi,
    sourceRules,
    state,
    config,
    counter: tokenCounters.o200k_base,
    logger,
  });
  const http = await startHttpServer({
    host: config.httpHost,
    port: config.httpPort,
    isHealthy: () => health.isServing(),
    ...(deps.tls === undefined ? {} : { tls: deps.tls }),
    ...(deps.metricsText === undefined ? {} : { metricsText: deps.metricsText }),
    routes: [createConsoleRoute({ auth, rules: sourceRules, ledger }), createLedgerRoute(ledger, auth), ...routes],
    onError: (error) => logCallError(logger, "http request failed", error),
  });
  logger.info("gateway started", { grpcPort: grpc.port, httpPort: http.port, archive: config.archiveAddress });
  return {
    grpcPort: grpc.port,
    httpPort: http.port,
    counters,
    admission: admission.counters,
    async stop() {
      health.shutdown();
      await grpc.shutdown();
      await http.close();
    },
  };
}
