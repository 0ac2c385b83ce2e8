import { CreateBucketCommand, HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { SpanKind, withSpan } from "@loupe/telemetry/spans";
import type { ArchiveStoreStats } from "./archive-store.js";
import type { S3ArchiveStoreOptions } from "./s3-archive-store.js";
import { errorNameOf, httpStatusOf } from "./s3-errors.js";

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECTION_TIMEOUT_MS = 2_000;
const DEFAULT_MAX_ATTEMPTS = 2;
const SILENT_LOGGER = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * Builds the S3 client of the adapter: short timeouts and few attempts so a dead server fails fast, and
 * checksums only where S3 requires them — Ceph RGW 16 refuses the default streamed-checksum uploads
 * with 411 MissingContentLength. Counts every HTTP attempt into `stats.requests`.
 *
 * @internal
 */
export function createS3Client(options: S3ArchiveStoreOptions, stats: ArchiveStoreStats): S3Client {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    forcePathStyle: options.forcePathStyle ?? false,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    // Failures surface as AppErrors to the caller; the SDK's own console warnings would only duplicate them.
    logger: SILENT_LOGGER,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
      requestTimeout: requestTimeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: requestTimeoutMs,
    },
  });
  // Below the retry middleware (same step, lower priority), so each attempt counts.
  client.middlewareStack.add(
    (next) => async (args) => {
      stats.requests += 1;
      return next(args);
    },
    { step: "finalizeRequest", priority: "low", name: "loupeRequestCounter" },
  );
  // One client span per S3 call (its retries inside), child of the archive's span: `S3.PutObject`, …
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = (context.commandName ?? "S3Command").replace(/Command$/, "");
      const bucket = (args.input as { Bucket?: unknown }).Bucket;
      const attributes = {
        "rpc.system": "aws-api",
        "rpc.service": "S3",
        "rpc.method": operation,
        ...(typeof bucket === "string" ? { "aws.s3.bucket": bucket } : {}),
      };
      return withSpan(
        `S3.${operation}`,
        attributes,
        async (span) => {
          try {
            return await next(args);
          } catch (error) {
            const status = httpStatusOf(error);
            if (status !== undefined) span.setAttribute("http.response.status_code", status);
            throw error;
          }
        },
        SpanKind.CLIENT,
      );
    },
    { step: "initialize", name: "loupeTracing" },
  );
  return client;
}

/** The SDK's per-call options for an optional signal (exactOptionalPropertyTypes forbids `abortSignal: undefined`). @internal */
export function sendOptions(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal === undefined ? {} : { abortSignal: signal };
}

/**
 * Creates `bucket` unless HeadBucket finds it; a concurrent creator's win counts as success. Throws raw SDK errors.
 *
 * @internal
 */
export async function createBucketIfMissing(client: S3Client, bucket: string, abortSignal: AbortSignal | undefined): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), sendOptions(abortSignal));
    return;
  } catch (error) {
    if (httpStatusOf(error) !== 404) throw error;
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }), sendOptions(abortSignal));
  } catch (error) {
    // A concurrent creator won; for S3 "exists" is the goal, whoever made it.
    if (!["BucketAlreadyOwnedByYou", "BucketAlreadyExists"].includes(errorNameOf(error))) throw error;
  }
}
