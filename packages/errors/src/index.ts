export { AppError, isAppError, isRetryable, ERROR_CODES } from "./app-error.js";
export type { ErrorCode, ErrorReason, AppErrorOptions } from "./app-error.js";
