import { status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { AppError, type ErrorCode, isAppError } from "@loupe/errors";

/** A gRPC status code and the one-line message sent to the client. */
export interface GrpcStatusDetails {
  code: GrpcStatus;
  details: string;
}

/**
 * Maps any thrown value to the status sent to a client: AppError codes map
 * one-to-one; anything else becomes INTERNAL with a generic message (the cause
 * is logged by the caller, never sent).
 */
export function grpcStatusFromError(error: unknown): GrpcStatusDetails {
  if (!isAppError(error)) return { code: GrpcStatus.INTERNAL, details: "internal error" };
  return { code: grpcCodeFromErrorCode(error.code), details: error.message };
}

function grpcCodeFromErrorCode(code: ErrorCode): GrpcStatus {
  switch (code) {
    case "cancelled":
      return GrpcStatus.CANCELLED;
    case "invalid_argument":
      return GrpcStatus.INVALID_ARGUMENT;
    case "not_found":
      return GrpcStatus.NOT_FOUND;
    case "already_exists":
      return GrpcStatus.ALREADY_EXISTS;
    case "permission_denied":
      return GrpcStatus.PERMISSION_DENIED;
    case "resource_exhausted":
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case "failed_precondition":
      return GrpcStatus.FAILED_PRECONDITION;
    case "aborted":
      return GrpcStatus.ABORTED;
    case "out_of_range":
      return GrpcStatus.OUT_OF_RANGE;
    case "unimplemented":
      return GrpcStatus.UNIMPLEMENTED;
    case "unavailable":
      return GrpcStatus.UNAVAILABLE;
    case "deadline_exceeded":
      return GrpcStatus.DEADLINE_EXCEEDED;
    case "unauthenticated":
      return GrpcStatus.UNAUTHENTICATED;
    case "internal":
      return GrpcStatus.INTERNAL;
  }
}

const CODE_BY_STATUS: Partial<Record<GrpcStatus, ErrorCode>> = {
  [GrpcStatus.CANCELLED]: "cancelled",
  [GrpcStatus.INVALID_ARGUMENT]: "invalid_argument",
  [GrpcStatus.NOT_FOUND]: "not_found",
  [GrpcStatus.ALREADY_EXISTS]: "already_exists",
  [GrpcStatus.PERMISSION_DENIED]: "permission_denied",
  [GrpcStatus.RESOURCE_EXHAUSTED]: "resource_exhausted",
  [GrpcStatus.FAILED_PRECONDITION]: "failed_precondition",
  [GrpcStatus.ABORTED]: "aborted",
  [GrpcStatus.OUT_OF_RANGE]: "out_of_range",
  [GrpcStatus.UNIMPLEMENTED]: "unimplemented",
  [GrpcStatus.UNAVAILABLE]: "unavailable",
  [GrpcStatus.DEADLINE_EXCEEDED]: "deadline_exceeded",
  [GrpcStatus.UNAUTHENTICATED]: "unauthenticated",
};

/**
 * Turns an error a grpc-js client call failed with into an AppError with the
 * matching code (unknown statuses become `internal`), keeping the server's
 * message and the original as `cause`.
 */
export function errorFromGrpcStatus(error: ServiceError | Error): AppError {
  const code = (error as Partial<ServiceError>).code;
  const mapped = code === undefined ? "internal" : (CODE_BY_STATUS[code] ?? "internal");
  const details = (error as Partial<ServiceError>).details ?? error.message;
  const metadata = (error as Partial<ServiceError>).metadata;
  const pushback = Number(metadata?.get("grpc-retry-pushback-ms")[0]);
  const reason = metadata?.get("loupe-error-reason")[0];
  return new AppError(mapped, details, {
    cause: error,
    ...(Number.isFinite(pushback) && pushback >= 0 ? { retryAfterMs: pushback } : {}),
    ...(reason === "too_large" || reason === "rate_limited" || reason === "overloaded" ? { reason } : {}),
  });
}
