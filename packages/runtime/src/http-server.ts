import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError } from "@loupe/errors";

/**
 * Handles a request it owns and returns true, or returns false to let the next
 * route (and finally a 404) answer.
 */
export type HttpRoute = (request: IncomingMessage, response: ServerResponse) => Promise<boolean> | boolean;

/** Options for {@link startHttpServer}. */
export interface HttpServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** GET /healthz answers 200 while this returns true, 503 otherwise. */
  isHealthy: () => boolean | Promise<boolean>;
  /** Routes tried in order after /healthz. */
  routes?: readonly HttpRoute[];
  /** Sees errors routes throw (the client gets a 500). */
  onError?: (error: unknown) => void;
}

/** A running HTTP server. */
export interface HttpServer {
  readonly port: number;
  readonly server: Server;
  /** Stops accepting connections and closes idle ones; waits up to `graceMs` for open requests. */
  close(graceMs?: number): Promise<void>;
}

async function healthz(isHealthy: HttpServerOptions["isHealthy"], response: ServerResponse): Promise<void> {
  const healthy = await Promise.resolve(isHealthy()).catch(() => false);
  response.writeHead(healthy ? 200 : 503, { "content-type": "application/json" });
  response.end(JSON.stringify({ status: healthy ? "ok" : "unavailable" }));
}

/**
 * Starts an HTTP server with GET /healthz and the given routes.
 * @throws AppError `unavailable` when the address cannot be bound.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const server = createServer((request, response) => {
    void (async () => {
      try {
        const path = (request.url ?? "/").split("?")[0];
        if (path === "/healthz" && (request.method === "GET" || request.method === "HEAD")) return await healthz(options.isHealthy, response);
        for (const route of options.routes ?? []) if (await route(request, response)) return;
        response.writeHead(404, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "not found" }));
      } catch (error) {
        options.onError?.(error);
        if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: "internal error" }));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(new AppError("unavailable", `cannot bind http server [address=${options.host}:${String(options.port)}]`, { cause: error })));
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
