import { AppError } from "@loupe/errors";
import type { ErrorCode } from "@loupe/errors";

const CODE_BY_ERRNO: Readonly<Record<string, ErrorCode>> = {
  ENOENT: "not_found",
  ENOTDIR: "failed_precondition",
  EISDIR: "failed_precondition",
  EEXIST: "failed_precondition",
  ENAMETOOLONG: "invalid_argument",
  ENOSPC: "resource_exhausted",
  EDQUOT: "resource_exhausted",
  EMFILE: "resource_exhausted",
  ENFILE: "resource_exhausted",
  EACCES: "permission_denied",
  EPERM: "permission_denied",
  EROFS: "permission_denied",
  EBUSY: "unavailable",
  EAGAIN: "unavailable",
};

/**
 * Translates a Node filesystem error into an AppError at the adapter boundary: missing → `not_found`,
 * a key that collides with a directory (or a file where a directory is needed) → `failed_precondition`,
 * full disk or too many open files → `resource_exhausted`, access → `permission_denied`, others `internal`.
 * AppErrors pass through.
 *
 * @internal
 */
export function appErrorFromFsError(error: unknown, operation: string, context: string): AppError {
  if (error instanceof AppError) return error;
  const errno = (error as { code?: unknown } | undefined)?.code;
  const code = (typeof errno === "string" ? CODE_BY_ERRNO[errno] : undefined) ?? "internal";
  const reason = typeof errno === "string" ? errno.toLowerCase() : "failed";
  const subject = code === "not_found" ? "archive object not found" : `archive file ${operation} ${reason}`;
  return new AppError(code, `${subject} [${context}]`, { cause: error });
}

/** The errno of a Node filesystem error, if any. @internal */
export function errnoOf(error: unknown): string | undefined {
  const errno = (error as { code?: unknown } | undefined)?.code;
  return typeof errno === "string" ? errno : undefined;
}
