import http from "node:http";
import https from "node:https";
import { SpanKind, withSpan } from "@loupe/telemetry/spans";
import type { ArchiveStoreStats } from "./archive-store.js";
import { createSigner, encodeS3Path, payloadHashOf, type SigningCredentials } from "./s3-sigv4.js";

/** Where and how {@link createSignedRequester} sends. @internal */
export interface SignedRequesterOptions {
  /** `http(s)://host[:port]`: the S3-compatible server. */
  endpoint: string;
  region: string;
  bucket: string;
  /** `endpoint/bucket/key`, else `bucket.host/key` (see {@link s3Target}). */
  forcePathStyle: boolean;
  /** The identity to sign with (the SDK client's credential chain: cached and refreshed there). */
  credentials: () => Promise<SigningCredentials>;
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  maxAttempts: number;
  stats: ArchiveStoreStats;
}

/** One object request. */
export interface SignedRequest {
  /** `PutObject`, `GetObject`, `HeadObject`, `DeleteObject`: the span's and errors' operation name. */
  operation: string;
  method: "PUT" | "GET" | "HEAD" | "DELETE";
  key: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  signal?: AbortSignal;
}

/** A response of any status; the body read whole (none for HEAD). */
export interface SignedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Uint8Array;
}

/** An answer S3 gave as an error: shaped like the SDK's (`name`, `$metadata.httpStatusCode`), so s3-errors.ts reads both. */
export class S3ResponseError extends Error {
  readonly $metadata: { httpStatusCode: number };
  constructor(name: string, status: number, message: string) {
    super(message);
    this.name = name;
    this.$metadata = { httpStatusCode: status };
  }
}

const RETRY_DELAY_MS = 50;
const NAME_BY_STATUS: Record<number, string> = { 404: "NotFound", 412: "PreconditionFailed", 403: "Forbidden", 416: "InvalidRange" };

/** The S3 error code of an XML error body, else a name from the status. */
export function s3ErrorOf(status: number, body: Uint8Array, method: string): S3ResponseError {
  const text = Buffer.from(body).toString("utf8");
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]{0,300})<\/Message>/.exec(text)?.[1];
  const name = code ?? NAME_BY_STATUS[status] ?? (status >= 500 ? "ServiceUnavailable" : "UnknownError");
  return new S3ResponseError(name, status, message ?? `${method} answered ${String(status)}`);
}

/**
 * Where an object's requests go: path-style (`endpoint/bucket/key`) when asked, when the endpoint is an IP
 * address or when the bucket's name has dots (no host name under TLS); else virtual-hosted — connecting to
 * `bucket.host`, which the Host header names too — as the SDK does.
 */
export function s3Target(endpoint: URL, bucket: string, forcePathStyle: boolean): { hostname: string; host: string; pathOf(key: string): string } {
  const ip = /^\d{1,3}(\.\d{1,3}){3}$/.test(endpoint.hostname) || endpoint.hostname.startsWith("[");
  if (forcePathStyle || ip || bucket.includes(".")) {
    // `[::1]` in a URL, `::1` to connect to.
    return { hostname: endpoint.hostname.replace(/^\[(.*)\]$/, "$1"), host: endpoint.host, pathOf: (key) => `/${bucket}/${encodeS3Path(key)}` };
  }
  return { hostname: `${bucket}.${endpoint.hostname}`, host: `${bucket}.${endpoint.host}`, pathOf: (key) => `/${encodeS3Path(key)}` };
}

/** A network failure or a server error worth one more attempt. */
function retryable(error: unknown): boolean {
  if (error instanceof S3ResponseError) return error.$metadata.httpStatusCode >= 500 || error.$metadata.httpStatusCode === 429;
  const name = (error as { name?: unknown }).name;
  return name !== "AbortError";
}

/**
 * Object requests to S3 without the SDK's middleware stack: signed with SigV4 (s3-sigv4.ts) and sent over a
 * keep-alive agent. The SDK spends 3–4 ms of CPU on a 4 KB PutObject here against about 1 ms for the same
 * request sent this way (test/bench, docs/benchmarks.md), and the archive sends several per saved result.
 *
 * Timeouts and attempts follow the SDK client's settings: a connection within `connectionTimeoutMs`, the
 * response within `requestTimeoutMs` of silence, up to `maxAttempts` attempts for network failures, 429 and
 * 5xx (every attempt counted in `stats.requests`). Non-2xx answers reject with an {@link S3ResponseError}.
 * @internal
 */
export function createSignedRequester(options: SignedRequesterOptions): { send(request: SignedRequest): Promise<SignedResponse>; close(): void } {
  const url = new URL(options.endpoint);
  const secure = url.protocol === "https:";
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 256 });
  const target = s3Target(url, options.bucket, options.forcePathStyle);
  const sign = createSigner(options.region);

  const attempt = async (request: SignedRequest): Promise<SignedResponse> => {
    const path = target.pathOf(request.key);
    const headers: Record<string, string> = { host: target.host, ...request.headers };
    if (request.body !== undefined) headers["content-length"] = String(request.body.byteLength);
    sign({ method: request.method, path, query: "", headers, payloadHash: payloadHashOf(request.body) }, await options.credentials(), Date.now());
    options.stats.requests += 1;
    return new Promise<SignedResponse>((resolve, reject) => {
      const outgoing = transport.request(
        {
          protocol: url.protocol,
          hostname: target.hostname,
          port: url.port,
          method: request.method,
          path,
          headers,
          agent,
          ...(request.signal ? { signal: request.signal } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () => {
            const body = chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks);
            const status = response.statusCode ?? 0;
            if (status >= 200 && status < 300) {
              options.stats.bytesReceived += body.byteLength;
              resolve({ status, headers: response.headers, body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) });
            } else reject(s3ErrorOf(status, body, request.method));
          });
        },
      );
      outgoing.on("error", reject);
      outgoing.setTimeout(options.requestTimeoutMs, () =>
        outgoing.destroy(Object.assign(new Error(`no answer within ${String(options.requestTimeoutMs)} ms`), { name: "TimeoutError" })),
      );
      outgoing.on("socket", (socket) => {
        if (!socket.connecting) return;
        const timer = setTimeout(
          () =>
            outgoing.destroy(
              Object.assign(new Error(`no connection within ${String(options.connectionTimeoutMs)} ms`), { name: "TimeoutError", code: "ETIMEDOUT" }),
            ),
          options.connectionTimeoutMs,
        );
        socket.once("connect", () => clearTimeout(timer));
        socket.once("close", () => clearTimeout(timer));
      });
      outgoing.end(request.body);
    });
  };

  const send = async (request: SignedRequest): Promise<SignedResponse> => {
    for (let attemptNumber = 1; ; attemptNumber += 1) {
      try {
        return await attempt(request);
      } catch (error) {
        if (attemptNumber >= options.maxAttempts || !retryable(error) || request.signal?.aborted === true) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * attemptNumber));
      }
    }
  };

  return {
    send: (request) =>
      withSpan(
        `S3.${request.operation}`,
        { "rpc.system": "aws-api", "rpc.service": "S3", "rpc.method": request.operation, "aws.s3.bucket": options.bucket },
        async (span) => {
          try {
            return await send(request);
          } catch (error) {
            if (error instanceof S3ResponseError) span.setAttribute("http.response.status_code", error.$metadata.httpStatusCode);
            throw error;
          }
        },
        SpanKind.CLIENT,
      ),
    close: () => agent.destroy(),
  };
}
