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
 * Why an error of one code happened, where the code alone has several meanings and callers
 * answer them differently: `resource_exhausted` is `too_large` (a request over a limit: HTTP
 * 413), `rate_limited` (429) or `overloaded` (503).
 */
export type ErrorReason = "too_large" | "rate_limited" | "overloaded";

/** Options of an {@link AppError}: the cause, and the details some callers act on. */
export interface AppErrorOptions extends ErrorOptions {
  reason?: ErrorReason;
  /** When a retry may succeed, in ms (rate limits, overload): HTTP `Retry-After`. */
  retryAfterMs?: number;
  /** Every problem found, one per entry (configuration, validation), as data rather than message text. */
  problems?: readonly string[];
}

/**
 * The one error class of Loupe. `message` is lowercase, with no trailing
 * period, context in brackets: `archive object not found [key=k]`.
 */
export class AppError extends Error {
  override readonly name = "AppError";
  readonly code: ErrorCode;
  readonly reason?: ErrorReason;
  readonly retryAfterMs?: number;
  readonly problems?: readonly string[];

  constructor(code: ErrorCode, message: string, options?: AppErrorOptions) {
    super(message, options);
    this.code = code;
    if (options?.reason !== undefined) this.reason = options.reason;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options?.problems !== undefined) this.problems = options.problems;
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

/**
 * True for failures a caller may retry after a backoff — the one decision every retry loop of Loupe
 * uses (the SDK, the note-worker, the summarizers): `unavailable`, `deadline_exceeded`,
 * `aborted`, and `resource_exhausted` when it is load (`rate_limited`, `overloaded`), never when
 * a request is too large.
 */
export function isRetryable(error: unknown): boolean {
  if (!isAppError(error)) return false;
  if (error.code === "resource_exhausted") return error.reason === "rate_limited" || error.reason === "overloaded";
  return error.code === "unavailable" || error.code === "deadline_exceeded" || error.code === "aborted";
}
