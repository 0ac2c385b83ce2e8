export { AppError, isAppError, isRetryable, ERROR_CODES } from "./app-error.js";
export type { ErrorCode } from "./app-error.js";
