import { readBool, throwOnProblems } from "@loupe/config";
import { createLoupeClient, DEFAULT_ADDRESS, loupeClientOptionsFromEnv } from "@loupe/client";
import { createLoupeMcpServer, loupeMcpApiFromClient } from "@loupe/client/mcp";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse } from "@modelcontextprotocol/sdk/types.js";
import { parseFlags } from "./parse-flags.js";

const log = (message: string): void => void process.stderr.write(`loupe mcp: ${message}\n`);

/**
 * Tracks requests from when they are read until their answer is written; the returned
 * function resolves once none is open (so a closed stdin does not cut answers off).
 */
function trackOpenRequests(transport: Transport): () => Promise<void> {
  const open = new Set<string | number>();
  let wake: (() => void) | undefined;
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) open.add(message.id);
    receive?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) open.delete(message.id);
    if (open.size === 0) wake?.();
  };
  return async () => {
    // Let requests read in the same chunk as the end of input start first.
    await new Promise((resolve) => setImmediate(resolve));
    while (open.size > 0) await new Promise<void>((resolve) => (wake = resolve));
  };
}

/**
 * `loupe mcp [--addr HOST:PORT] [--session ID]`: Loupe's MCP server on stdio (stdout carries
 * only the protocol; logs go to stderr), calling Loupe at --addr, LOUPE_ADDR or
 * 127.0.0.1:50051 with LOUPE_TOKEN. read_history and search_history serve --session (or
 * LOUPE_SESSION_ID) when a call names no session. set_app_limit is allowed only when
 * LOUPE_MCP_ADMIN is true, which the operator sets in the MCP client's launch config.
 * Returns once stdin has closed and every answer is written.
 */
export async function mcpCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const flags = parseFlags(args, ["addr", "session"], []);
  const problems: string[] = [];
  const admin = readBool(env, "LOUPE_MCP_ADMIN", false, problems);
  throwOnProblems("mcp", problems);
  const fromEnv = loupeClientOptionsFromEnv(env);
  const address = flags.values.addr ?? fromEnv.address ?? DEFAULT_ADDRESS;
  const sessionId = flags.values.session ?? (env["LOUPE_SESSION_ID"]?.trim() || undefined);
  const client = createLoupeClient({ ...fromEnv, address });
  // The views read_result describes; a Loupe that cannot answer yet leaves them out (read_result still takes a view).
  const views = await client.listViews({ source: env["LOUPE_SOURCE"] ?? "" }).then(
    (response) => response.views,
    (error: unknown) => {
      log(`field views not listed: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    },
  );
  const server = createLoupeMcpServer(loupeMcpApiFromClient(client), {
    admin,
    views,
    ...(sessionId === undefined ? {} : { sessionId }),
    onError: (error, tool) => log(`${tool} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  const inputClosed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const answered = trackOpenRequests(transport);
  log(`serving on stdio [loupe=${address}, admin=${String(admin)}, session=${sessionId ?? "(each call names it)"}]`);
  try {
    await inputClosed;
    await answered();
  } finally {
    await server.close();
    client.close();
  }
  return 0;
}
