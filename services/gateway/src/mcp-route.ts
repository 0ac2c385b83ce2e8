import type { IncomingMessage, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import type { FieldViewLine, LoupeMcpApi } from "@loupe/client/mcp";
import type { ServiceHandlers } from "@loupe/grpc";
import {
  PutNoteRequestSchema,
  PutNoteResponseSchema,
  RequestHandoverRequestSchema,
  RequestHandoverResponseSchema,
  GetSourceLimitRequestSchema,
  GetSourceLimitResponseSchema,
  ListViewsRequestSchema,
  ListViewsResponseSchema,
  ReadHistoryRequestSchema,
  ReadHistoryResponseSchema,
  RecoverRequestSchema,
  RecoverResponseSchema,
  SearchHistoryRequestSchema,
  SearchHistoryResponseSchema,
  SetSourceLimitRequestSchema,
  SetSourceLimitResponseSchema,
  ListEntriesRequestSchema,
  ListEntriesResponseSchema,
  type ConversationService,
  type LedgerService,
  type ProjectionService,
  type RulesService,
} from "@loupe/proto";
import { logCallError, sendHttpError, type HttpRoute, type Logger } from "@loupe/runtime";
import { isAppError } from "@loupe/errors";
import { localContext as callContext } from "./projection-handlers.js";
import { bearerTokenOf, sameSecret, type Authenticator } from "./auth/authenticator.js";
import { httpPrincipal } from "./auth/http-principal.js";

/** What the `/mcp` route needs. */
export interface McpRouteOptions {
  /** Who is calling: with auth on, the token's tenant and its admin scope (set_app_limit). */
  auth: Authenticator;
  handlers: ServiceHandlers<typeof ProjectionService>;
  rulesHandlers: ServiceHandlers<typeof RulesService>;
  conversationHandlers: ServiceHandlers<typeof ConversationService>;
  ledgerHandlers?: ServiceHandlers<typeof LedgerService>;
  /** The bearer token that makes a caller admin (set_app_limit); undefined = no caller is. */
  adminToken: string | undefined;
  logger: Logger;
}

const MCP_PATH = "/mcp";

/** A {@link LoupeMcpApi} over the gateway's own handlers (no network hop). */
export function mcpApiFromHandlers(
  options: Pick<McpRouteOptions, "handlers" | "rulesHandlers" | "conversationHandlers" | "ledgerHandlers">,
  headers: IncomingMessage["headers"] = {},
): LoupeMcpApi {
  const { handlers, rulesHandlers, conversationHandlers, ledgerHandlers } = options;
  const localContext = (signal: AbortSignal | undefined) => callContext(signal, headers);
  return {
    recover: async (request, call) => create(RecoverResponseSchema, await handlers.recover(create(RecoverRequestSchema, request), localContext(call?.signal))),
    searchResult: async (request, call) =>
      create(RecoverResponseSchema, await handlers.recover(create(RecoverRequestSchema, request), localContext(call?.signal))),
    readHistory: async (request, call) =>
      create(ReadHistoryResponseSchema, await conversationHandlers.readHistory(create(ReadHistoryRequestSchema, request), localContext(call?.signal))),
    searchHistory: async (request, call) =>
      create(SearchHistoryResponseSchema, await conversationHandlers.searchHistory(create(SearchHistoryRequestSchema, request), localContext(call?.signal))),
    putNote: async (request, call) =>
      create(PutNoteResponseSchema, await conversationHandlers.putNote(create(PutNoteRequestSchema, request), localContext(call?.signal))),
    requestHandover: async (request, call) =>
      create(
        RequestHandoverResponseSchema,
        await conversationHandlers.requestHandover(create(RequestHandoverRequestSchema, request), localContext(call?.signal)),
      ),
    setSourceLimit: async (request, call) =>
      create(SetSourceLimitResponseSchema, await rulesHandlers.setSourceLimit(create(SetSourceLimitRequestSchema, request), localContext(call?.signal))),
    getSourceLimit: async (request, call) =>
      create(GetSourceLimitResponseSchema, await rulesHandlers.getSourceLimit(create(GetSourceLimitRequestSchema, request), localContext(call?.signal))),
    ...(ledgerHandlers === undefined
      ? {}
      : {
          listLedgerEntries: async (request, call) =>
            create(ListEntriesResponseSchema, await ledgerHandlers.listEntries(create(ListEntriesRequestSchema, request), localContext(call?.signal))),
        }),
  };
}

/** True when the request carries `Authorization: Bearer <adminToken>` (compared in constant time). */
export function isAdminRequest(request: IncomingMessage, adminToken: string | undefined): boolean {
  if (adminToken === undefined || adminToken === "") return false;
  const token = bearerTokenOf({ authorization: request.headers.authorization });
  return token !== undefined && sameSecret(token, adminToken);
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
  const onError = (error: unknown, tool: string): void => logCallError(options.logger, "mcp tool failed", error, { tool });
  // The configuration's views do not change while the gateway runs: listed once.
  let views: Promise<readonly FieldViewLine[]> | undefined;
  return async (request, response) => {
    if ((request.url ?? "/").split("?")[0] !== MCP_PATH) return false;
    if (request.method !== "POST") {
      refuseMethod(response);
      return true;
    }
    // With auth on the caller's token decides its tenant and whether it may change rules; off, LOUPE_ADMIN_TOKEN does (as ever).
    let admin: boolean;
    try {
      admin = options.auth.mode === "off" ? isAdminRequest(request, options.adminToken) : (await httpPrincipal(options.auth, request)).admin;
    } catch (error) {
      if (!isAppError(error)) throw error;
      sendHttpError(response, error);
      return true;
    }
    const api = mcpApiFromHandlers(options, request.headers);
    views ??= Promise.resolve(options.rulesHandlers.listViews(create(ListViewsRequestSchema), callContext(undefined, request.headers))).then(
      (answer) => create(ListViewsResponseSchema, answer).views,
    );
    // The MCP SDK and Loupe's MCP server load with the first MCP request (the module loader keeps them):
    // about 20 MB resident and half a second that most gateways never need.
    const [{ createLoupeMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
      import("@loupe/client/mcp"),
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    ]);
    const server = createLoupeMcpServer(api, { admin, onError, views: await views });
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
