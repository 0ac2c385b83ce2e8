import type { ServiceHandlers } from "@loupe/grpc";
import type { TokenCounter } from "@loupe/projection";
import {
  AppendTurnsRequestSchema,
  AppendTurnsResponseSchema,
  CompactRequestSchema,
  CompactResponseSchema,
  EndSessionRequestSchema,
  EndSessionResponseSchema,
  GetNoteRequestSchema,
  GetNoteResponseSchema,
  PutNoteRequestSchema,
  PutNoteResponseSchema,
  ReadHistoryRequestSchema,
  ReadHistoryResponseSchema,
  SearchHistoryRequestSchema,
  SearchHistoryResponseSchema,
  CutHistoryRequestSchema,
  CutHistoryResponseSchema,
  DeleteResultsRequestSchema,
  DeleteResultsResponseSchema,
  GetSourceLimitRequestSchema,
  GetSourceLimitResponseSchema,
  ProjectRequestSchema,
  ProjectResponseSchema,
  RecoverRequestSchema,
  RecoverResponseSchema,
  RequestHandoverRequestSchema,
  RequestHandoverResponseSchema,
  SetSourceLimitRequestSchema,
  SetSourceLimitResponseSchema,
  type ConversationService,
  type LedgerService,
  type ProjectionService,
  type RulesService,
} from "@loupe/proto";
import type { HttpRoute, Logger } from "@loupe/runtime";
import type { GatewayConfig } from "./config.js";
import { createJsonApi, jsonEndpoint } from "./json-api.js";
import { createMcpRoute } from "./mcp-route.js";
import type { CutObserver } from "./cut-history/cut-history-handler.js";
import { localContext } from "./projection-handlers.js";
import type { Authenticator } from "./auth/authenticator.js";
import type { HistoryProjector } from "./cut-history/history-projector.js";
import { createVendorProxy } from "./proxy/vendor-proxy.js";
import type { ImageCutDeps } from "./cut-history/images/cut-images.js";
import { createSourceLimitsRoute } from "./source-limits-route.js";
import type { SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";

/** What the gateway's HTTP port serves besides /healthz. */
export interface HttpRoutesDeps {
  /** Who is calling (the tenant comes from the credentials). */
  auth: Authenticator;
  handlers: ServiceHandlers<typeof ProjectionService>;
  /** The history projector CutHistory uses (mode "project"), for the vendor proxy. */
  projectText: HistoryProjector;
  /** The history cut's screenshots (image_keep_last, image_dedupe), for the vendor proxy. */
  imageCuts: ImageCutDeps;
  observeCut?: CutObserver;
  rulesHandlers: ServiceHandlers<typeof RulesService>;
  conversationHandlers: ServiceHandlers<typeof ConversationService>;
  ledgerHandlers?: ServiceHandlers<typeof LedgerService>;
  restApi: HttpRoute;
  sourceRules: SourceRules;
  state: StateStore;
  config: GatewayConfig;
  counter: TokenCounter;
  logger: Logger;
}

/**
 * The gateway's HTTP routes, in the order they are tried: the JSON API
 * (`POST /v1/project`, `/v1/recover`, …), the REST API (`/api/teams/…`), the
 * MCP server (`POST /mcp`), then the vendor proxy for the vendor routes it knows (every other
 * `/v1/` or `/v1beta/` path answers 404).
 */
export function createHttpRoutes(deps: HttpRoutesDeps): HttpRoute[] {
  const { handlers, rulesHandlers, conversationHandlers: conversation, config } = deps;
  return [
    createJsonApi({
      "/v1/project": jsonEndpoint(ProjectRequestSchema, ProjectResponseSchema, (request, signal, headers) =>
        handlers.project(request, localContext(signal, headers)),
      ),
      "/v1/recover": jsonEndpoint(RecoverRequestSchema, RecoverResponseSchema, (request, signal, headers) =>
        handlers.recover(request, localContext(signal, headers)),
      ),
      "/v1/cut-history": jsonEndpoint(CutHistoryRequestSchema, CutHistoryResponseSchema, (request, signal, headers) =>
        handlers.cutHistory(request, localContext(signal, headers)),
      ),
      "/v1/delete-results": jsonEndpoint(DeleteResultsRequestSchema, DeleteResultsResponseSchema, (request, signal, headers) =>
        handlers.deleteResults(request, localContext(signal, headers)),
      ),
      "/v1/set-source-limit": jsonEndpoint(SetSourceLimitRequestSchema, SetSourceLimitResponseSchema, (request, signal, headers) =>
        rulesHandlers.setSourceLimit(request, localContext(signal, headers)),
      ),
      "/v1/get-source-limit": jsonEndpoint(GetSourceLimitRequestSchema, GetSourceLimitResponseSchema, (request, signal, headers) =>
        rulesHandlers.getSourceLimit(request, localContext(signal, headers)),
      ),
      "/v1/append-turns": jsonEndpoint(AppendTurnsRequestSchema, AppendTurnsResponseSchema, (request, signal, headers) =>
        conversation.appendTurns(request, localContext(signal, headers)),
      ),
      "/v1/compact": jsonEndpoint(CompactRequestSchema, CompactResponseSchema, (request, signal, headers) =>
        conversation.compact(request, localContext(signal, headers)),
      ),
      "/v1/read-history": jsonEndpoint(ReadHistoryRequestSchema, ReadHistoryResponseSchema, (request, signal, headers) =>
        conversation.readHistory(request, localContext(signal, headers)),
      ),
      "/v1/search-history": jsonEndpoint(SearchHistoryRequestSchema, SearchHistoryResponseSchema, (request, signal, headers) =>
        conversation.searchHistory(request, localContext(signal, headers)),
      ),
      "/v1/get-note": jsonEndpoint(GetNoteRequestSchema, GetNoteResponseSchema, (request, signal, headers) =>
        conversation.getNote(request, localContext(signal, headers)),
      ),
      "/v1/put-note": jsonEndpoint(PutNoteRequestSchema, PutNoteResponseSchema, (request, signal, headers) =>
        conversation.putNote(request, localContext(signal, headers)),
      ),
      "/v1/end-session": jsonEndpoint(EndSessionRequestSchema, EndSessionResponseSchema, (request, signal, headers) =>
        conversation.endSession(request, localContext(signal, headers)),
      ),
      "/v1/request-handover": jsonEndpoint(RequestHandoverRequestSchema, RequestHandoverResponseSchema, (request, signal, headers) =>
        conversation.requestHandover(request, localContext(signal, headers)),
      ),
    }),
    deps.restApi,
    createSourceLimitsRoute(deps.sourceRules, deps.auth, deps.state),
    createMcpRoute({
      auth: deps.auth,
      handlers,
      rulesHandlers,
      conversationHandlers: conversation,
      ...(deps.ledgerHandlers === undefined ? {} : { ledgerHandlers: deps.ledgerHandlers }),
      adminToken: config.adminToken,
      logger: deps.logger,
    }),
    createVendorProxy({
      anthropicBaseUrl: config.anthropicBaseUrl,
      openAiBaseUrl: config.openAiBaseUrl,
      geminiBaseUrl: config.geminiBaseUrl,
      maxBodyBytes: config.maxResultBytes,
      auth: deps.auth,
      rules: deps.sourceRules,
      state: deps.state,
      counter: deps.counter,
      projectText: deps.projectText,
      imageCuts: deps.imageCuts,
      ...(deps.observeCut === undefined ? {} : { observeCut: deps.observeCut }),
      logger: deps.logger,
    }),
  ];
}
