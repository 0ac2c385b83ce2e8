import { AppError, isAppError } from "@loupe/errors";
import type { ErrorCode } from "@loupe/errors";

// Reply prefixes that mean "the server is there but cannot serve now".
const UNAVAILABLE_REPLIES = ["LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "READONLY", "NOREPLICAS"];

/**
 * Translates an ioredis error into an AppError. Server replies (ReplyError) keep their meaning:
 * a non-integer value → `failed_precondition`, overflow → `out_of_range`, OOM →
 * `resource_exhausted`, loading/busy/read-only → `unavailable`, others → `internal`. Everything
 * else (connection refused or closed, command timeout, retries exhausted) is `unavailable`.
 *
 * @internal
 */
export function appErrorFromRedis(error: unknown, operation: string, connectionProblem: string | undefined): AppError {
  if (isAppError(error)) return error;
  if (!(error instanceof Error)) return AppError.from(error, "unavailable");
  if (error.name === "ReplyError") {
    const code = codeFromReply(error.message);
    return new AppError(code, `redis refused the command [op=${operation}, reply=${firstWord(error.message)}]`, { cause: error });
  }
  const reason = connectionProblem ?? error.message.replace(/\.$/, "");
  return new AppError("unavailable", `redis unavailable [op=${operation}, reason=${reason}]`, { cause: error });
}

/** True for the reply that asks for EVAL after an EVALSHA of a script the server lacks. @internal */
export function isNoScriptError(error: unknown): boolean {
  return error instanceof Error && error.name === "ReplyError" && error.message.startsWith("NOSCRIPT");
}

function codeFromReply(message: string): ErrorCode {
  if (message.includes("not an integer") || message.startsWith("WRONGTYPE")) return "failed_precondition";
  if (message.includes("overflow")) return "out_of_range";
  if (message.startsWith("OOM")) return "resource_exhausted";
  if (UNAVAILABLE_REPLIES.some((prefix) => message.startsWith(prefix))) return "unavailable";
  return "internal";
}

function firstWord(message: string): string {
  return message.split(" ", 1)[0] ?? "";
}
