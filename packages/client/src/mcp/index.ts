/**
 * @loupe/client/mcp: Loupe's MCP server. `createLoupeMcpServer` exposes Recover,
 * ReadHistory, SearchHistory and the app rules as MCP tools over any
 * {@link LoupeMcpApi}: the gRPC SDK client (`loupe mcp`, stdio) or the
 * gateway's own handlers (`/mcp`, streamable HTTP).
 *
 * @packageDocumentation
 */

export { createLoupeMcpServer, LOUPE_MCP_INSTRUCTIONS, LOUPE_MCP_SERVER_VERSION } from "./create-loupe-mcp-server.js";
export { loupeMcpApiFromClient } from "./loupe-mcp-api.js";
export { ADMIN_REQUIRED_MESSAGE } from "./limit-tools.js";
export type { LoupeMcpServerOptions } from "./create-loupe-mcp-server.js";
export type { LoupeMcpApi, LoupeMcpCall, LoupeMcpCallOptions } from "./loupe-mcp-api.js";
export type { McpToolErrorSink } from "./tool-output.js";
export { describeView, viewsParagraph, type FieldViewLine } from "./view-lines.js";
