import type { ServerResponse } from "node:http";
import { isAppError, type AppError, type ErrorCode } from "@loupe/errors";

// The one table from error codes to HTTP statuses, used by every route (JSON API, REST, MCP, proxy's own answers).
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  cancelled: 499,
  invalid_argument: 400,
  out_of_range: 400,
  not_found: 404,
  already_exists: 409,
  aborted: 409,
  permission_denied: 403,
  unauthenticated: 401,
  failed_precondition: 412,
  // Decided by the error's reason: too large 413, rate limited 429, overloaded 503.
  resource_exhausted: 413,
  unimplemented: 501,
  unavailable: 503,
  deadline_exceeded: 504,
  internal: 500,
};

const STATUS_BY_REASON: Record<NonNullable<AppError["reason"]>, number> = { too_large: 413, rate_limited: 429, overloaded: 503 };

/**
 * The HTTP status of an error: its code's (one table for every route); a `resource_exhausted`
 * error by its reason (`too_large` 413, `rate_limited` 429, `overloaded` 503); anything not an
 * AppError 500.
 */
export function httpStatusOf(error: unknown): number {
  if (!isAppError(error)) return 500;
  if (error.code === "resource_exhausted" && error.reason !== undefined) return STATUS_BY_REASON[error.reason];
  return STATUS_BY_CODE[error.code];
}

/**
 * Answers an error as JSON `{ code, message }` with {@link httpStatusOf}'s status, and
 * `Retry-After` (whole seconds) when the error says when a retry may succeed. An error that is not
 * an AppError answers `internal` with a generic message (its own may hold internals).
 */
export function sendHttpError(response: ServerResponse, error: unknown): void {
  const status = httpStatusOf(error);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (isAppError(error) && error.retryAfterMs !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
  const body = isAppError(error) ? { code: error.code, message: error.message } : { code: "internal", message: "internal error" };
  response.writeHead(status, headers);
  response.end(JSON.stringify(body));
}
