// The client side alone (`@loupe/grpc/client`): the commands a runtime starts once per tool call
// call Loupe without loading the server, reflection and health code.
export { createGrpcClient, RECONNECT_OPTIONS } from "./client.js";
export { DEFAULT_MAX_RESULT_BYTES, messageLimitOptions } from "./message-limits.js";
export type { GrpcClient, GrpcClientOptions } from "./client.js";
export type { CallOptions, ServiceClient } from "./handler-types.js";
