import { readBool, throwOnProblems } from "@loupe/config";
import { createLoupeClient, DEFAULT_ADDRESS } from "@loupe/client";
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
 * `loupe mcp [--addr HOST:PORT]`: Loupe's MCP server on stdio (stdout carries only the
 * protocol; logs go to stderr), calling Loupe at --addr, LOUPE_ADDR or 127.0.0.1:50051.
 * set_app_limit is allowed only when LOUPE_MCP_ADMIN is true, which the operator sets in
 * the MCP client's launch config. Returns once stdin has closed and every answer is written.
 */
export async function mcpCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const flags = parseFlags(args, ["addr"], []);
  const problems: string[] = [];
  const admin = readBool(env, "LOUPE_MCP_ADMIN", false, problems);
  throwOnProblems("mcp", problems);
  const address = flags.values.addr ?? env["LOUPE_ADDR"] ?? DEFAULT_ADDRESS;
  const client = createLoupeClient({ address });
  const server = createLoupeMcpServer(loupeMcpApiFromClient(client), {
    admin,
    onError: (error, tool) => log(`${tool} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  const inputClosed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const answered = trackOpenRequests(transport);
  log(`serving on stdio [loupe=${address}, admin=${String(admin)}]`);
  try {
    await inputClosed;
    await answered();
  } finally {
    await server.close();
    client.close();
  }
  return 0;
}
