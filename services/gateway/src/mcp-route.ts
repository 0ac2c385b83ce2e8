import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import { createLoupeMcpServer, type LoupeMcpApi } from "@loupe/client/mcp";
import type { ServiceHandlers } from "@loupe/grpc";
import {
  GetSourceLimitRequestSchema,
  GetSourceLimitResponseSchema,
  ReadHistoryRequestSchema,
  ReadHistoryResponseSchema,
  RecoverRequestSchema,
  RecoverResponseSchema,
  SearchHistoryRequestSchema,
  SearchHistoryResponseSchema,
  SetSourceLimitRequestSchema,
  SetSourceLimitResponseSchema,
  type ConversationService,
  type ProjectionService,
  type RulesService,
} from "@loupe/proto";
import type { HttpRoute, Logger } from "@loupe/runtime";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { localContext } from "./projection-handlers.js";

/** What the `/mcp` route needs. */
export interface McpRouteOptions {
  handlers: ServiceHandlers<typeof ProjectionService>;
  rulesHandlers: ServiceHandlers<typeof RulesService>;
  conversationHandlers: ServiceHandlers<typeof ConversationService>;
  /** The bearer token that makes a caller admin (set_app_limit); undefined = no caller is. */
  adminToken: string | undefined;
  logger: Logger;
}

const MCP_PATH = "/mcp";


/** A {@link LoupeMcpApi} over the gateway's own handlers (no network hop). */
export function mcpApiFromHandlers(options: Pick<McpRouteOptions, "handlers" | "rulesHandlers" | "conversationHandlers">): LoupeMcpApi {
  const { handlers, rulesHandlers, conversationHandlers } = options;
  return {
    recover: async (request, call) => create(RecoverResponseSchema, await handlers.recover(create(RecoverRequestSchema, request), localContext(call?.signal))),
    searchResult: async (request, call) => create(RecoverResponseSchema, await handlers.recover(create(RecoverRequestSchema, request), localContext(call?.signal))),
    readHistory: async (request, call) => create(ReadHistoryResponseSchema, await conversationHandlers.readHistory(create(ReadHistoryRequestSchema, request), localContext(call?.signal))),
    searchHistory: async (request, call) => create(SearchHistoryResponseSchema, await conversationHandlers.searchHistory(create(SearchHistoryRequestSchema, request), localContext(call?.signal))),
    setSourceLimit: async (request, call) => create(SetSourceLimitResponseSchema, await rulesHandlers.setSourceLimit(create(SetSourceLimitRequestSchema, request), localContext(call?.signal))),
    getSourceLimit: async (request, call) => create(GetSourceLimitResponseSchema, await rulesHandlers.getSourceLimit(create(GetSourceLimitRequestSchema, request), localContext(call?.signal))),
  };
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** True when the request carries `Authorization: Bearer <adminToken>` (compared in constant time). */
export function isAdminRequest(request: IncomingMessage, adminToken: string | undefined): boolean {
  if (adminToken === undefined || adminToken === "") return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  if (!match?.[1]) return false;
  // Digests have equal lengths, so the comparison reveals neither the token nor its length.
  return timingSafeEqual(digest(match[1]), digest(adminToken));
}

function refuseMethod(response: ServerResponse): void {
  response.writeHead(405, { "content-type": "application/json", allow: "POST" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "method not allowed: this MCP endpoint is stateless, use POST" }, id: null }));
}

/**
 * `POST /mcp`: Loupe's MCP server over stateless streamable HTTP (a new server and
 * transport per request, no session id); GET and DELETE answer 405. A caller is admin
 * (may call set_app_limit) only with `Authorization: Bearer <LOUPE_ADMIN_TOKEN>`.
 */
export function createMcpRoute(options: McpRouteOptions): HttpRoute {
  const api = mcpApiFromHandlers(options);
  const onError = (error: unknown, tool: string): void => options.logger.error("mcp tool failed", { tool, error });
  return async (request, response) => {
    if ((request.url ?? "/").split("?")[0] !== MCP_PATH) return false;
    if (request.method !== "POST") {
      refuseMethod(response);
      return true;
    }
    const server = createLoupeMcpServer(api, { admin: isAdminRequest(request, options.adminToken), onError });
    // No sessionIdGenerator: stateless, each POST stands alone.
    const transport = new StreamableHTTPServerTransport({});
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
    return true;
  };
}
