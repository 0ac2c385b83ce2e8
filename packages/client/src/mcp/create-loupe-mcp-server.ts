import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerHandoverTools } from "./handover-tools.js";
import { registerHistoryTools } from "./history-tools.js";
import { registerLedgerTool } from "./ledger-tool.js";
import { registerLimitTools } from "./limit-tools.js";
import type { LoupeMcpApi } from "./loupe-mcp-api.js";
import { registerResultTools } from "./result-tools.js";
import type { FieldViewLine } from "./view-lines.js";
import type { McpToolContext, McpToolErrorSink } from "./tool-output.js";

/** The version the server announces. */
export const LOUPE_MCP_SERVER_VERSION = "0.1.0";

/** What the server tells a model about itself when it connects. */
export const LOUPE_MCP_INSTRUCTIONS =
  "Loupe keeps the complete tool results whose views it shortened, and the turns of this conversation. " +
  "When a view notes an omission ('[loupe] … recover with {…}'), call read_result with the arguments the note gives, or search_result to find a line. " +
  "read_history and search_history reach earlier turns, also those compaction removed (the handover note names the session). " +
  "At a natural point (an investigation finished, changes verified) you may write your own handover note with put_note and ask for a fresh window with request_handover. " +
  "Answers that stop early end with a 'next:' line naming the exact call that continues.";

/** Options of {@link createLoupeMcpServer}. */
export interface LoupeMcpServerOptions {
  /**
   * True when this caller may change an app's rule (set_app_limit). An operator grants it
   * where the server is started; a model must never be able to (it could be prompt-injected).
   */
  admin: boolean;
  /** The name the server announces; default `loupe`. */
  name?: string;
  /** Sees errors that are not a Loupe answer (to log them); the model reads `internal: …`. */
  onError?: McpToolErrorSink;
  /** The session this server serves: read_history and search_history use it when a call names none. */
  sessionId?: string;
  /** The field views to describe in read_result's description (from RulesService.ListViews); none when left out. */
  views?: readonly FieldViewLine[];
}

/**
 * Creates Loupe's MCP server: read_result, search_result, read_history, search_history,
 * put_note, request_handover, get_app_limit and set_app_limit (refused unless `options.admin`), each answering text
 * content. A Loupe error answers a tool error `code: message`; invalid arguments answer the
 * SDK's validation error. Connect it to a transport with `server.connect(transport)`.
 */
export function createLoupeMcpServer(api: LoupeMcpApi, options: LoupeMcpServerOptions): McpServer {
  const serverName = options.name ?? "loupe";
  const server = new McpServer({ name: serverName, version: LOUPE_MCP_SERVER_VERSION }, { instructions: LOUPE_MCP_INSTRUCTIONS });
  const context: McpToolContext = { onError: options.onError, serverName, sessionId: options.sessionId, ...(options.views ? { views: options.views } : {}) };
  registerResultTools(server, api, context);
  registerHistoryTools(server, api, context);
  registerHandoverTools(server, api, context);
  registerLedgerTool(server, api, context);
  registerLimitTools(server, api, options.admin, context);
  return server;
}
