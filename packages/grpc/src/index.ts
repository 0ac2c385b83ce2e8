export { startGrpcServer, registerService } from "./server.js";
export { createGrpcClient, RECONNECT_OPTIONS } from "./client.js";
export { createInProcessClient } from "./in-process-client.js";
export { grpcStatusFromError } from "./status.js";
export { createHealthReporter } from "./health.js";
export { createReflectionServices } from "./reflection.js";
export { DEFAULT_MAX_RESULT_BYTES, messageLimitOptions } from "./message-limits.js";
export type { GrpcServer, GrpcServerOptions } from "./server.js";
export type { GrpcClient, GrpcClientOptions } from "./client.js";
export type { HandlerContext, ServiceHandlers, ServiceClient, CallOptions } from "./handler-types.js";

export type { HealthReporter } from "./health.js";
export type { ErrorObserver } from "./service-implementation.js";

// Library-internal: used by tests and by services that build definitions directly.
