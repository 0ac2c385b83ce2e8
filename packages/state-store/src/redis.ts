// The Redis state store alone (`@loupe/state-store/redis`): ioredis loads only in the processes that
// connect to Redis, not in an embedded Loupe.
export { createRedisStateStore, DEFAULT_REDIS_COMMAND_TIMEOUT_MS, DEFAULT_REDIS_CONNECT_TIMEOUT_MS } from "./create-redis-state-store.js";
export type { RedisStateStoreOptions } from "./create-redis-state-store.js";
