export { startGrpcServer, registerService, DEFAULT_SHUTDOWN_GRACE_MS } from "./server.js";
export { createGrpcClient } from "./client.js";
export { grpcStatusFromError, errorFromGrpcStatus } from "./status.js";
export { createHealthReporter } from "./health.js";
export { createReflectionServices } from "./reflection.js";
export { DEFAULT_MAX_RESULT_BYTES, ENVELOPE_ALLOWANCE_BYTES, messageLimitOptions } from "./message-limits.js";
export type { GrpcServer, GrpcServerOptions, ServiceRegistration } from "./server.js";
export type { GrpcClient, GrpcClientOptions } from "./client.js";
export type { HandlerContext, ServiceHandlers, ServiceClient, CallOptions, MethodHandler, ClientMethod } from "./handler-types.js";
export type { GrpcStatusDetails } from "./status.js";
export type { HealthReporter } from "./health.js";
export type { ErrorObserver } from "./service-implementation.js";

// Library-internal: used by tests and by services that build definitions directly.
export { createServiceDefinition, methodPath } from "./service-definition.js";
export { createServiceImplementation } from "./service-implementation.js";
