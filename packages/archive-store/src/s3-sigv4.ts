import { createHash, createHmac } from "node:crypto";

/** What signs a request: the identity the SDK's credential chain resolved. @internal */
export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** One request to sign: lower-case header names; `host` among them. @internal */
export interface RequestToSign {
  method: string;
  /** The encoded path, as sent (see {@link encodeS3Path}). */
  path: string;
  /** The encoded query string without `?`, its parameters sorted; empty for none. */
  query: string;
  headers: Record<string, string>;
  /** Hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`. */
  payloadHash: string;
}

const EMPTY_SHA256 = createHash("sha256").digest("hex");

/** The hex SHA-256 of a body (of none: the empty string's). @internal */
export const payloadHashOf = (body: Uint8Array | undefined): string =>
  body === undefined || body.byteLength === 0 ? EMPTY_SHA256 : createHash("sha256").update(body).digest("hex");

/**
 * A key as an S3 path segment: every byte but RFC 3986's unreserved characters and `/` percent-encoded,
 * which is both what goes on the wire and what SigV4 signs for S3 (no double encoding).
 * @internal
 */
export function encodeS3Path(key: string): string {
  return encodeURIComponent(key)
    .replace(/%2F/g, "/")
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20130524T000000Z`. */
export const amzDateOf = (nowMs: number): string =>
  new Date(nowMs)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/**
 * Signs a request with AWS Signature Version 4 for S3 (`Authorization` header form): adds `x-amz-date`,
 * `x-amz-content-sha256`, `x-amz-security-token` when the credentials carry one, and `authorization`,
 * signing every header given. The derived signing key is kept per day, region and secret.
 * @internal
 */
export function createSigner(region: string): (request: RequestToSign, credentials: SigningCredentials, nowMs: number) => void {
  let cached: { day: string; secret: string; key: Buffer } | undefined;
  const signingKey = (day: string, secret: string): Buffer => {
    if (cached?.day !== day || cached.secret !== secret) {
      const hmac = (key: Buffer | string, data: string): Buffer => createHmac("sha256", key).update(data).digest();
      cached = { day, secret, key: hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), "s3"), "aws4_request") };
    }
    return cached.key;
  };
  return (request, credentials, nowMs) => {
    const amzDate = amzDateOf(nowMs);
    const day = amzDate.slice(0, 8);
    const { headers } = request;
    headers["x-amz-date"] = amzDate;
    headers["x-amz-content-sha256"] = request.payloadHash;
    if (credentials.sessionToken !== undefined) headers["x-amz-security-token"] = credentials.sessionToken;
    const names = Object.keys(headers).sort();
    const signedHeaders = names.join(";");
    const canonical = [
      request.method,
      request.path,
      request.query,
      ...names.map((name) => `${name}:${(headers[name] ?? "").trim().replace(/\s+/g, " ")}`),
      "",
      signedHeaders,
      request.payloadHash,
    ].join("\n");
    const scope = `${day}/${region}/s3/aws4_request`;
    const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, createHash("sha256").update(canonical).digest("hex")].join("\n");
    const signature = createHmac("sha256", signingKey(day, credentials.secretAccessKey)).update(toSign).digest("hex");
    headers["authorization"] = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  };
}
