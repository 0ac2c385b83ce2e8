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
import { LOCAL_TENANT, localContext } from "./projection-handlers.js";
import type { HistoryProjector } from "./cut-history/history-projector.js";
import { createVendorProxy } from "./proxy/vendor-proxy.js";
import { createSourceLimitsRoute } from "./source-limits-route.js";
import type { SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";

/** What the gateway's HTTP port serves besides /healthz. */
export interface HttpRoutesDeps {
  handlers: ServiceHandlers<typeof ProjectionService>;
  /** The history projector CutHistory uses (mode "project"), for the vendor proxy. */
  projectText: HistoryProjector;
  rulesHandlers: ServiceHandlers<typeof RulesService>;
  conversationHandlers: ServiceHandlers<typeof ConversationService>;
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
 * MCP server (`POST /mcp`), then the vendor proxy for every other `/v1/` path.
 */
export function createHttpRoutes(deps: HttpRoutesDeps): HttpRoute[] {
  const { handlers, rulesHandlers, conversationHandlers: conversation, config } = deps;
  return [
    createJsonApi({
      "/v1/project": jsonEndpoint(ProjectRequestSchema, ProjectResponseSchema, (request, signal) => handlers.project(request, localContext(signal))),
      "/v1/recover": jsonEndpoint(RecoverRequestSchema, RecoverResponseSchema, (request, signal) => handlers.recover(request, localContext(signal))),
      "/v1/cut-history": jsonEndpoint(CutHistoryRequestSchema, CutHistoryResponseSchema, (request, signal) => handlers.cutHistory(request, localContext(signal))),
      "/v1/delete-results": jsonEndpoint(DeleteResultsRequestSchema, DeleteResultsResponseSchema, (request, signal) => handlers.deleteResults(request, localContext(signal))),
      "/v1/set-source-limit": jsonEndpoint(SetSourceLimitRequestSchema, SetSourceLimitResponseSchema, (request, signal) => rulesHandlers.setSourceLimit(request, localContext(signal))),
      "/v1/get-source-limit": jsonEndpoint(GetSourceLimitRequestSchema, GetSourceLimitResponseSchema, (request, signal) => rulesHandlers.getSourceLimit(request, localContext(signal))),
      "/v1/append-turns": jsonEndpoint(AppendTurnsRequestSchema, AppendTurnsResponseSchema, (request, signal) => conversation.appendTurns(request, localContext(signal))),
      "/v1/compact": jsonEndpoint(CompactRequestSchema, CompactResponseSchema, (request, signal) => conversation.compact(request, localContext(signal))),
      "/v1/read-history": jsonEndpoint(ReadHistoryRequestSchema, ReadHistoryResponseSchema, (request, signal) => conversation.readHistory(request, localContext(signal))),
      "/v1/search-history": jsonEndpoint(SearchHistoryRequestSchema, SearchHistoryResponseSchema, (request, signal) => conversation.searchHistory(request, localContext(signal))),
      "/v1/get-note": jsonEndpoint(GetNoteRequestSchema, GetNoteResponseSchema, (request, signal) => conversation.getNote(request, localContext(signal))),
      "/v1/put-note": jsonEndpoint(PutNoteRequestSchema, PutNoteResponseSchema, (request, signal) => conversation.putNote(request, localContext(signal))),
      "/v1/end-session": jsonEndpoint(EndSessionRequestSchema, EndSessionResponseSchema, (request, signal) => conversation.endSession(request, localContext(signal))),
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
      projectText: deps.projectText,
      logger: deps.logger,
    }),
  ];
}
