import { createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createProbeMcpServer } from "./probe-mcp-server.js";

/** The probe MCP server over streamable HTTP, in this process. */
export interface ProbeMcpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** Each request's method and headers, in order (to see what a runtime sends, e.g. configured headers). */
  readonly requests: Array<{ method: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      resolve(text === "" ? undefined : (JSON.parse(text) as unknown));
    });
  });
}

/**
 * Starts the probe MCP server (`read_result`) on 127.0.0.1 as a stateless streamable HTTP
 * endpoint at `/mcp`: each POST gets a fresh server and transport; GET (the optional
 * server-to-client stream) and DELETE answer 405, which clients treat as "not offered".
 */
export async function startProbeMcpHttpServer(log?: string): Promise<ProbeMcpHttpServer> {
  const requests: ProbeMcpHttpServer["requests"] = [];
  const http = createServer((request, response) => {
    requests.push({ method: request.method ?? "", headers: request.headers });
    if (request.method !== "POST") {
      response
        .writeHead(405, { "content-type": "application/json", allow: "POST" })
        .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }));
      return;
    }
    void (async () => {
      const server = createProbeMcpServer(log);
      // No session id generator: stateless mode, one server and transport per request.
      const transport = new StreamableHTTPServerTransport({});
      response.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, await readBody(request));
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${String((http.address() as AddressInfo).port)}/mcp`,
    requests,
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
