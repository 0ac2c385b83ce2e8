/**
 * The canonical gRPC codes Loupe uses, as lowercase strings. The gateway maps
 * each to a `grpc.status` in one place (`grpcStatusFromError` in `@loupe/grpc`).
 */
export type ErrorCode =
  | "cancelled"
  | "invalid_argument"
  | "not_found"
  | "already_exists"
  | "permission_denied"
  | "resource_exhausted"
  | "failed_precondition"
  | "aborted"
  | "out_of_range"
  | "unimplemented"
  | "unavailable"
  | "deadline_exceeded"
  | "unauthenticated"
  | "internal";

/** Every `ErrorCode`, in declaration order. */
export const ERROR_CODES: readonly ErrorCode[] = [
  "cancelled",
  "invalid_argument",
  "not_found",
  "already_exists",
  "permission_denied",
  "resource_exhausted",
  "failed_precondition",
  "aborted",
  "out_of_range",
  "unimplemented",
  "unavailable",
  "deadline_exceeded",
  "unauthenticated",
  "internal",
];

/**
 * The one error class of Loupe. `message` is lowercase, with no trailing
 * period, context in brackets: `archive object not found [key=k]`.
 */
export class AppError extends Error {
  override readonly name = "AppError";
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }

  /**
   * Returns `error` when it already is an AppError; wraps anything else as
   * `internal`, keeping it as `cause` (like ConnectError.from).
   */
  static from(error: unknown, code: ErrorCode = "internal"): AppError {
    if (isAppError(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new AppError(code, message, { cause: error });
  }
}

/**
 * Structural guard: true for an AppError, also one created by another copy of
 * this package (so instanceof across bundles is not needed).
 */
export function isAppError(error: unknown): error is AppError {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return error.name === "AppError" && typeof code === "string" && (ERROR_CODES as readonly string[]).includes(code);
}

/** True for codes a caller may retry after a backoff: unavailable, deadline_exceeded, aborted. */
export function isRetryable(error: unknown): boolean {
  if (!isAppError(error)) return false;
  return error.code === "unavailable" || error.code === "deadline_exceeded" || error.code === "aborted";
}
