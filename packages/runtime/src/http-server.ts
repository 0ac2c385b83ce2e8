import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { AppError } from "@loupe/errors";
import { sendHttpError } from "./http-error.js";

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
  /** Routes tried in order after /healthz and /metrics. */
  routes?: readonly HttpRoute[];
  /** GET /metrics answers this process's metrics in Prometheus text (open like /healthz: scrapers send no token). */
  metricsText?: () => Promise<string>;
  /** Sees errors routes throw (the client gets a 500). */
  onError?: (error: unknown) => void;
  /** PEM certificate chain and private key: serve HTTPS instead of HTTP. */
  tls?: { cert: Buffer; key: Buffer };
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
 * Starts an HTTP server with GET /healthz, GET /metrics (when given) and the given routes.
 * @throws AppError `unavailable` when the address cannot be bound.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    void (async () => {
      try {
        const path = (request.url ?? "/").split("?")[0];
        if (path === "/healthz" && (request.method === "GET" || request.method === "HEAD")) return await healthz(options.isHealthy, response);
        if (path === "/metrics" && request.method === "GET" && options.metricsText !== undefined) {
          const text = await options.metricsText();
          response.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
          response.end(text);
          return;
        }
        for (const route of options.routes ?? []) if (await route(request, response)) return;
        sendHttpError(response, new AppError("not_found", `no such path [path=${path ?? ""}]`));
      } catch (error) {
        options.onError?.(error);
        if (response.headersSent) response.end();
        // Not the caller's fault: a generic message, the cause goes to onError only.
        else sendHttpError(response, new AppError("internal", "internal error"));
      }
    })();
  };
  const server: Server = options.tls === undefined ? createServer(listener) : createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(new AppError("unavailable", `cannot bind http server [address=${options.host}:${String(options.port)}]`, { cause: error })),
    );
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
