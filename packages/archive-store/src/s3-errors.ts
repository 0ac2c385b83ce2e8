import { AppError } from "@loupe/errors";
import { abortError } from "./abort-error.js";

/** Where an S3 call went, for error messages. @internal */
export interface S3CallContext {
  endpoint: string;
  bucket: string;
  operation: string;
  key?: string;
}

const NETWORK_ERRNOS = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);
const NOT_FOUND_NAMES = new Set(["NoSuchKey", "NotFound"]);
const DENIED_NAMES = new Set(["AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "Forbidden"]);
// The body differs from the SHA-256 the request declared (PutOptions.sha256Hex).
const DIGEST_NAMES = new Set(["XAmzContentSHA256Mismatch", "BadDigest"]);

interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** The HTTP status of an S3 SDK error, if the server answered. @internal */
export function httpStatusOf(error: unknown): number | undefined {
  return (error as SdkErrorShape | undefined)?.$metadata?.httpStatusCode;
}

/** The S3 error name (`NoSuchKey`, `PreconditionFailed`, …) or Node error name. @internal */
export function errorNameOf(error: unknown): string {
  const name = (error as SdkErrorShape | undefined)?.name;
  return typeof name === "string" ? name : "";
}

/**
 * Translates an S3 SDK or network error into an AppError, so that no vendor error crosses the adapter:
 * an aborted signal → `cancelled` (`deadline_exceeded` for a timeout reason); NoSuchKey/404 → `not_found`;
 * NoSuchBucket → `failed_precondition`; a body unlike its declared SHA-256 → `invalid_argument`; 403 → `permission_denied`; refused/reset connections, socket
 * timeouts, 429 and 5xx → `unavailable` naming the endpoint; anything else → `internal`. AppErrors pass through.
 *
 * @internal
 */
export function appErrorFromS3Error(error: unknown, context: S3CallContext, signal?: AbortSignal): AppError {
  if (error instanceof AppError) return error;
  const where = describe(context);
  const name = errorNameOf(error);
  if (signal?.aborted === true || name === "AbortError") return abortError(signal, where, error);
  const status = httpStatusOf(error);
  const errno = (error as SdkErrorShape | undefined)?.code;
  if (name === "NoSuchBucket") {
    return new AppError("failed_precondition", `archive bucket does not exist [${where}]`, { cause: error });
  }
  if (NOT_FOUND_NAMES.has(name) || status === 404) {
    return new AppError("not_found", `archive object not found [${where}]`, { cause: error });
  }
  if (DIGEST_NAMES.has(name)) {
    return new AppError("invalid_argument", `archive store refused a body that does not match its declared SHA-256 [${where}]`, { cause: error });
  }
  if (DENIED_NAMES.has(name) || status === 403) {
    return new AppError("permission_denied", `archive store refused the request [${where}, error=${name}]`, {
      cause: error,
    });
  }
  const networkFailure = (typeof errno === "string" && NETWORK_ERRNOS.has(errno)) || name === "TimeoutError" || name === "RequestTimeout";
  if (networkFailure || status === 429 || (status !== undefined && status >= 500)) {
    const reason = typeof errno === "string" ? errno : name || String(status);
    return new AppError("unavailable", `archive store unavailable [${where}, reason=${reason}]`, { cause: error });
  }
  return new AppError("internal", `archive store request failed [${where}, error=${name}, status=${String(status)}]`, {
    cause: error,
  });
}

function describe(context: S3CallContext): string {
  const key = context.key === undefined ? "" : `, key=${context.key}`;
  return `endpoint=${context.endpoint}, bucket=${context.bucket}, operation=${context.operation}${key}`;
}
