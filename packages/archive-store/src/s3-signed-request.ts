import http from "node:http";
import https from "node:https";
import { Sha256 } from "@smithy/core/checksum";
import { HttpRequest } from "@smithy/core/protocols";
import { SignatureV4 } from "@smithy/signature-v4";
import { SpanKind, withSpan } from "@loupe/telemetry/spans";
import type { ArchiveStoreStats } from "./archive-store.js";

/** The identity a request is signed with. @internal */
export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

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
 * A key as an S3 path: every byte but RFC 3986's unreserved characters and `/` percent-encoded, which is
 * both what goes on the wire and what SigV4 signs for S3 (the signer is told not to encode it again).
 */
export function encodeS3Path(key: string): string {
  return encodeURIComponent(key)
    .replace(/%2F/g, "/")
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The SDK's SigV4 signer set up for S3: the path signed as sent (encodeS3Path already encoded it once), the payload hashed. @internal */
export function s3Signer(region: string, credentials: () => Promise<SigningCredentials>): SignatureV4 {
  return new SignatureV4({ credentials, region, service: "s3", sha256: Sha256, uriEscapePath: false });
}

/** A request's optional signal (exactOptionalPropertyTypes forbids `signal: undefined`). @internal */
export const signalOf = (signal: AbortSignal | undefined): { signal?: AbortSignal } => (signal === undefined ? {} : { signal });

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
 * Object requests to S3 without the SDK's command middleware stack: signed by the SDK's own SigV4 signer
 * (see {@link s3Signer}) and sent over a keep-alive agent. Through the whole stack a 4 KB PutObject costs
 * 3–4 ms of CPU here, this way about 1.2 ms (the SDK's Node HTTP handler in place of the plain request: about
 * 0.4 ms more a request, measured; docs/benchmarks.md), and the archive sends several per saved result.
 *
 * Timeouts and attempts follow the SDK client's settings: a connection within `connectionTimeoutMs`, the
 * response within `requestTimeoutMs` of silence, up to `maxAttempts` attempts for network failures, 429 and
 * 5xx (every attempt counted in `stats.requests`). Non-2xx answers reject with an {@link S3ResponseError}.
 * @internal
 */
export function createSignedRequester(options: SignedRequesterOptions): { send(request: SignedRequest): Promise<SignedResponse>; close(): void } {
  const url = new URL(options.endpoint);
  const transport = url.protocol === "https:" ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 256 });
  const target = s3Target(url, options.bucket, options.forcePathStyle);
  const signer = s3Signer(options.region, options.credentials);

  const attempt = async (request: SignedRequest): Promise<SignedResponse> => {
    const path = target.pathOf(request.key);
    const unsigned: Record<string, string> = { host: target.host, ...request.headers };
    if (request.body !== undefined) unsigned["content-length"] = String(request.body.byteLength);
    const { headers } = await signer.sign(
      new HttpRequest({
        protocol: url.protocol,
        hostname: target.hostname,
        method: request.method,
        path,
        headers: unsigned,
        ...(request.body ? { body: request.body } : {}),
      }),
    );
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
