import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";

// Hop-by-hop headers and Loupe's own never travel upstream; content-length is set for the body sent.
const DROPPED = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "content-length",
  "x-loupe-source",
  "x-loupe-session",
  "x-proxium-source",
  "x-loupe-token",
]);

/** Thrown when the upstream could not be reached (before any answer byte was sent back). */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
}

/**
 * Sends `body` to `target` with the caller's headers — less hop-by-hop headers, Loupe's own and
 * `dropped` (another vendor's credentials) — and pipes the answer back untouched (streams
 * included), with `extraHeaders` added. The caller leaving ends the upstream call too.
 * @throws UpstreamError when the upstream cannot be reached
 */
export function forward(
  request: IncomingMessage,
  response: ServerResponse,
  target: URL,
  body: Uint8Array,
  extraHeaders: Record<string, string>,
  dropped: ReadonlySet<string>,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !DROPPED.has(name) && !dropped.has(name)) headers[name] = value;
  if (request.method !== "GET" || body.byteLength > 0) headers["content-length"] = String(body.byteLength);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const upstream = send(target, { method: request.method ?? "POST", headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...extraHeaders });
      answer.pipe(response);
      answer.on("end", resolve);
      answer.on("error", reject);
    });
    upstream.on("error", (error) => reject(response.headersSent ? error : new UpstreamError(`upstream unreachable [host=${target.host}]`, { cause: error })));
    response.on("close", () => {
      if (!response.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  });
}
