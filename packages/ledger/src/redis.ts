// The Redis ledger alone (`@loupe/ledger/redis`): ioredis loads only in the processes that connect
// to Redis, not in an embedded Loupe.
export { createRedisLedger } from "./redis-ledger.js";
export type { RedisLedgerOptions } from "./redis-ledger.js";
