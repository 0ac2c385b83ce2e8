export { createLogger } from "./logger.js";
export { startHttpServer } from "./http-server.js";
export { onShutdownSignal } from "./on-shutdown-signal.js";
export { lockDirectory } from "./lock-directory.js";
export { logCallError } from "./log-call-error.js";
export { httpStatusOf, sendHttpError } from "./http-error.js";
export type { Logger, LogLevel, LogFields, LoggerOptions } from "./logger.js";
export type { HttpServer, HttpServerOptions, HttpRoute } from "./http-server.js";
export type { LockDirectoryOptions } from "./lock-directory.js";
