import { isAppError, type ErrorCode } from "@loupe/errors";
import type { LogFields, Logger } from "./logger.js";

// The caller's own mistakes and choices: expected in normal operation, not the service's failures.
const CLIENT_CODES: ReadonlySet<ErrorCode> = new Set([
  "cancelled",
  "invalid_argument",
  "not_found",
  "already_exists",
  "permission_denied",
  "failed_precondition",
  "aborted",
  "out_of_range",
  "unauthenticated",
]);
// Load or limits: worth a look, not a fault of the service.
const WARNING_CODES: ReadonlySet<ErrorCode> = new Set(["resource_exhausted", "deadline_exceeded", "unimplemented"]);

/** The log level an error of a call deserves: `info` for the caller's errors, `warn` for limits and load, `error` for the rest. */
export function logLevelOfError(error: unknown): "info" | "warn" | "error" {
  if (!isAppError(error)) return "error";
  if (CLIENT_CODES.has(error.code)) return "info";
  return WARNING_CODES.has(error.code) ? "warn" : "error";
}

/**
 * Logs a failed call at the level its error deserves (see {@link logLevelOfError}), with the
 * error's code among the fields, so a client's bad request is not reported as the service's fault.
 */
export function logCallError(logger: Logger, message: string, error: unknown, fields: LogFields = {}): void {
  const level = logLevelOfError(error);
  logger[level](message, { ...fields, ...(isAppError(error) ? { code: error.code } : {}), error });
}
