import { JetStreamApiError, JetStreamError } from "@nats-io/jetstream";
import { errors } from "@nats-io/transport-node";
import { AppError, isAppError } from "@loupe/errors";
import type { ErrorCode } from "@loupe/errors";

/** JetStream API error codes Loupe tells apart (nats-server `errors.json`). */
const API_CODES: Record<number, ErrorCode> = {
  10014: "not_found", // consumer not found
  10059: "not_found", // stream not found
  10058: "failed_precondition", // stream name in use with another configuration
  10065: "failed_precondition", // subjects overlap with an existing stream
  10013: "failed_precondition", // consumer name already in use
  10148: "failed_precondition", // consumer already exists
  10039: "unavailable", // jetstream not enabled for account
};

/**
 * Translates anything the NATS client throws into an AppError, so no vendor
 * error leaves the adapter. `what` names the operation and its context
 * (`publish [subject=s]`); for a publish, "no responders" means that no stream
 * stores the subject. The original error is kept as `cause`.
 */
export function appErrorFromNats(error: unknown, what: string, options: { publish?: boolean } = {}): AppError {
  if (isAppError(error)) return error;
  const cause = { cause: error };
  const reason = error instanceof Error ? error.message : String(error);
  const failed = (code: ErrorCode): AppError => new AppError(code, `nats ${what} failed [reason=${reason}]`, cause);
  if (error instanceof JetStreamApiError) {
    const known = API_CODES[error.code];
    if (known) return failed(known);
    if (error.status === 404) return failed("not_found");
    if (error.status === 400) return failed("invalid_argument");
    if (error.status === 503) return failed("unavailable");
    return failed("internal");
  }
  // JetStreamNotEnabled is not exported from the package root: recognise it by name.
  if ((error instanceof Error && error.name === "JetStreamNotEnabled") || error instanceof errors.NoRespondersError) {
    // The client reports a publish nobody answered as "jetstream not enabled".
    if (options.publish) return new AppError("failed_precondition", `no stream stores subject [${what}]`, cause);
    return failed("unavailable");
  }
  if (error instanceof errors.InvalidArgumentError && /max_payload/.test(reason)) return failed("resource_exhausted");
  if (error instanceof errors.InvalidArgumentError || error instanceof errors.InvalidSubjectError) return failed("invalid_argument");
  if (error instanceof errors.AuthorizationError || error instanceof errors.PermissionViolationError) return failed("permission_denied");
  if (error instanceof errors.UserAuthenticationExpiredError) return failed("unauthenticated");
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.ClosedConnectionError ||
    error instanceof errors.DrainingConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.RequestError ||
    error instanceof JetStreamError ||
    isNodeConnectionError(error)
  ) {
    return failed("unavailable");
  }
  return failed("internal");
}

function isNodeConnectionError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"].includes(code);
}
