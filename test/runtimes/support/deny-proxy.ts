import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";

/** A proxy on 127.0.0.1 that refuses everything and records what was asked of it. */
export interface DenyProxy {
  /** `http://127.0.0.1:<port>`, for `HTTPS_PROXY`/`HTTP_PROXY`. */
  readonly url: string;
  /** What the runtime tried to reach: `CONNECT host:port` or `METHOD url`, in order. */
  readonly attempts: string[];
  close(): Promise<void>;
}

/**
 * Starts a proxy that answers 403 to every request and `CONNECT`. Runtimes get it as their
 * `HTTPS_PROXY`/`HTTP_PROXY` (with 127.0.0.1 excluded through `NO_PROXY`), so traffic to anywhere
 * but the scripted vendor fails at once instead of waiting on DNS, and the test sees what was tried.
 */
export async function startDenyProxy(): Promise<DenyProxy> {
  const attempts: string[] = [];
  const server = createServer((request, response) => {
    attempts.push(`${request.method ?? ""} ${request.url ?? ""}`);
    response.writeHead(403, { "content-type": "text/plain" }).end("no network in runtime tests\n");
  });
  server.on("connect", (request: { url?: string }, socket: Duplex) => {
    attempts.push(`CONNECT ${request.url ?? ""}`);
    // A CONNECT's socket is the listener's own: the server no longer handles its errors, and a runtime that
    // resets it on the refusal (ECONNRESET) would otherwise throw in the test process.
    socket.on("error", () => socket.destroy());
    socket.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    attempts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
