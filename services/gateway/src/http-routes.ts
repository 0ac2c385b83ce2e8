import type { HandlerContext, ServiceHandlers } from "@loupe/grpc";
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
  SetSourceLimitRequestSchema,
  SetSourceLimitResponseSchema,
  type ConversationService,
  type ProjectionService,
  type RulesService,
} from "@loupe/proto";
import type { HttpRoute, Logger } from "@loupe/runtime";
import type { GatewayConfig } from "./config.js";
import { createJsonApi, jsonEndpoint } from "./json-api.js";
import { createMcpRoute } from "./mcp-route.js";
import { LOCAL_TENANT } from "./projection-handlers.js";
import { createHistoryProjector } from "./cut-history/history-projector.js";
import { createVendorProxy } from "./proxy/vendor-proxy.js";
import { createSourceLimitsRoute } from "./source-limits-route.js";
import type { SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";

/** What the gateway's HTTP port serves besides /healthz. */
export interface HttpRoutesDeps {
  handlers: ServiceHandlers<typeof ProjectionService>;
  rulesHandlers: ServiceHandlers<typeof RulesService>;
  conversationHandlers: ServiceHandlers<typeof ConversationService>;
  restApi: HttpRoute;
  sourceRules: SourceRules;
  state: StateStore;
  config: GatewayConfig;
  counter: TokenCounter;
  logger: Logger;
}

// HTTP calls run the gRPC handlers with the request's own cancellation and no metadata.
const contextOf = (signal: AbortSignal): HandlerContext => ({ metadata: {}, signal, deadlineMs: undefined });

/**
 * The gateway's HTTP routes, in the order they are tried: the JSON API
 * (`POST /v1/project`, `/v1/recover`, …), the REST API (`/api/teams/…`), the
 * MCP server (`POST /mcp`), then the vendor proxy for every other `/v1/` path.
 */
export function createHttpRoutes(deps: HttpRoutesDeps): HttpRoute[] {
  const { handlers, rulesHandlers, conversationHandlers: conversation, config } = deps;
  return [
    createJsonApi({
      "/v1/project": jsonEndpoint(ProjectRequestSchema, ProjectResponseSchema, (request, signal) => handlers.project(request, contextOf(signal))),
      "/v1/recover": jsonEndpoint(RecoverRequestSchema, RecoverResponseSchema, (request, signal) => handlers.recover(request, contextOf(signal))),
      "/v1/cut-history": jsonEndpoint(CutHistoryRequestSchema, CutHistoryResponseSchema, (request, signal) => handlers.cutHistory(request, contextOf(signal))),
      "/v1/delete-results": jsonEndpoint(DeleteResultsRequestSchema, DeleteResultsResponseSchema, (request, signal) => handlers.deleteResults(request, contextOf(signal))),
      "/v1/set-source-limit": jsonEndpoint(SetSourceLimitRequestSchema, SetSourceLimitResponseSchema, (request, signal) => rulesHandlers.setSourceLimit(request, contextOf(signal))),
      "/v1/get-source-limit": jsonEndpoint(GetSourceLimitRequestSchema, GetSourceLimitResponseSchema, (request, signal) => rulesHandlers.getSourceLimit(request, contextOf(signal))),
      "/v1/append-turns": jsonEndpoint(AppendTurnsRequestSchema, AppendTurnsResponseSchema, (request, signal) => conversation.appendTurns(request, contextOf(signal))),
      "/v1/compact": jsonEndpoint(CompactRequestSchema, CompactResponseSchema, (request, signal) => conversation.compact(request, contextOf(signal))),
      "/v1/read-history": jsonEndpoint(ReadHistoryRequestSchema, ReadHistoryResponseSchema, (request, signal) => conversation.readHistory(request, contextOf(signal))),
      "/v1/search-history": jsonEndpoint(SearchHistoryRequestSchema, SearchHistoryResponseSchema, (request, signal) => conversation.searchHistory(request, contextOf(signal))),
      "/v1/get-note": jsonEndpoint(GetNoteRequestSchema, GetNoteResponseSchema, (request, signal) => conversation.getNote(request, contextOf(signal))),
      "/v1/put-note": jsonEndpoint(PutNoteRequestSchema, PutNoteResponseSchema, (request, signal) => conversation.putNote(request, contextOf(signal))),
      "/v1/end-session": jsonEndpoint(EndSessionRequestSchema, EndSessionResponseSchema, (request, signal) => conversation.endSession(request, contextOf(signal))),
    }),
    deps.restApi,
    createSourceLimitsRoute(deps.sourceRules, LOCAL_TENANT),
    createMcpRoute({ handlers, rulesHandlers, conversationHandlers: conversation, adminToken: config.adminToken, logger: deps.logger }),
    createVendorProxy({
      anthropicBaseUrl: config.anthropicBaseUrl,
      openAiBaseUrl: config.openAiBaseUrl,
      maxBodyBytes: config.maxResultBytes,
      tenant: LOCAL_TENANT,
      rules: deps.sourceRules,
      state: deps.state,
      counter: deps.counter,
      projectText: createHistoryProjector((request) => handlers.project(request, contextOf(new AbortController().signal))),
      logger: deps.logger,
    }),
  ];
}
