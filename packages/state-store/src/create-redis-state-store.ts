import { AppError } from "@loupe/errors";
import { SpanKind, withSpan } from "@loupe/telemetry/spans";
import { Redis } from "ioredis";
import { assertIncrementBy, assertSetOptions } from "./assert-options.js";
import { appErrorFromRedis, isNoScriptError } from "./redis-error.js";
import { COMPARE_AND_SET_SCRIPT, INCREMENT_WITH_TTL_SCRIPT } from "./redis-scripts.js";
import type { RedisScript } from "./redis-scripts.js";
import type { SetOptions, StateStore } from "./state-store.js";

/** Default `connectTimeoutMs` of `createRedisStateStore`. */
export const DEFAULT_REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** Default `commandTimeoutMs` of `createRedisStateStore`. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2_000;
const MAX_RECONNECT_DELAY_MS = 1_000;
const SCAN_BATCH = 500;
const DISCONNECT_TIMEOUT_MS = 200;

/** Options of `createRedisStateStore`. */
export interface RedisStateStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`. */
  url: string;
  /** Prepended to every key, e.g. to isolate deployments or test runs sharing a Redis. Default "". */
  keyPrefix?: string;
  /** How long a connection attempt may take. Default `DEFAULT_REDIS_CONNECT_TIMEOUT_MS`. */
  connectTimeoutMs?: number;
  /** How long a command may wait for its reply, queueing included. Default `DEFAULT_REDIS_COMMAND_TIMEOUT_MS`. */
  commandTimeoutMs?: number;
}

/**
 * A `StateStore` on Redis. Connects at once and reconnects forever in the background, but
 * never lets a command wait on a dead server: a command fails with AppError `unavailable`
 * when a connection attempt fails or after `commandTimeoutMs`. compareAndSet and a TTL'd
 * increment run as Lua scripts (EVALSHA, EVAL on NOSCRIPT).
 *
 * @throws AppError `invalid_argument` when `url` is not a redis:// or rediss:// URL
 */
export function createRedisStateStore(options: RedisStateStoreOptions): StateStore {
  if (!/^rediss?:\/\//.test(options.url)) {
    throw new AppError("invalid_argument", "redis url must start with redis:// or rediss://");
  }
  const redis = new Redis(options.url, {
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
    // 0: the commands queued while (re)connecting fail as soon as one attempt fails, instead
    // of waiting through 20 reconnects; the queue itself is kept so the first commands after
    // start-up wait for the connection rather than failing outright.
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    // ioredis arms this timer on disconnect even when the socket is already closed (e.g. after
    // ECONNREFUSED) and never clears it, which holds the process open for that long on exit.
    disconnectTimeout: DISCONNECT_TIMEOUT_MS,
  });
  return new RedisStateStore(redis, options.keyPrefix ?? "");
}

class RedisStateStore implements StateStore {
  readonly #redis: Redis;
  readonly #keyPrefix: string;
  #connectionProblem: string | undefined;
  #closing: Promise<void> | undefined;

  constructor(redis: Redis, keyPrefix: string) {
    this.#redis = redis;
    this.#keyPrefix = keyPrefix;
    // Without a listener ioredis prints every failed attempt; the last one explains later failures.
    redis.on("error", (error: Error) => {
      this.#connectionProblem = error.message;
    });
    redis.on("ready", () => {
      this.#connectionProblem = undefined;
    });
  }

  get(key: string): Promise<string | undefined> {
    return this.#run("get", async () => (await this.#redis.get(this.#keyPrefix + key)) ?? undefined);
  }

  set(key: string, value: string, options?: SetOptions): Promise<void> {
    const fullKey = this.#keyPrefix + key;
    return this.#run("set", async () => {
      assertSetOptions(options, "set");
      if (options?.ttlMs === undefined) await this.#redis.set(fullKey, value);
      else await this.#redis.set(fullKey, value, "PX", options.ttlMs);
    });
  }

  compareAndSet(key: string, expected: string | undefined, value: string, options?: SetOptions): Promise<boolean> {
    const args = [expected === undefined ? "0" : "1", expected ?? "", value, String(options?.ttlMs ?? 0)];
    return this.#run("compareAndSet", async () => {
      assertSetOptions(options, "compareAndSet");
      return (await this.#script(COMPARE_AND_SET_SCRIPT, this.#keyPrefix + key, args)) === 1;
    });
  }

  delete(key: string): Promise<void> {
    return this.#run("delete", async () => {
      await this.#redis.unlink(this.#keyPrefix + key);
    });
  }

  deletePrefix(prefix: string): Promise<number> {
    const pattern = `${escapeGlob(this.#keyPrefix + prefix)}*`;
    return this.#run("deletePrefix", async () => {
      let cursor = "0";
      let count = 0;
      do {
        const [next, keys] = await this.#redis.scan(cursor, "MATCH", pattern, "COUNT", SCAN_BATCH);
        cursor = next;
        // UNLINK counts only keys it removed, so a key SCAN returns twice is counted once.
        if (keys.length > 0) count += await this.#redis.unlink(...keys);
      } while (cursor !== "0");
      return count;
    });
  }

  increment(key: string, by: number, options?: SetOptions): Promise<number> {
    const fullKey = this.#keyPrefix + key;
    return this.#run("increment", async () => {
      assertSetOptions(options, "increment");
      assertIncrementBy(by);
      if (options?.ttlMs === undefined) return await this.#redis.incrby(fullKey, by);
      return Number(await this.#script(INCREMENT_WITH_TTL_SCRIPT, fullKey, [String(by), String(options.ttlMs)]));
    });
  }

  ttlMs(key: string): Promise<number | undefined> {
    return this.#run("ttlMs", async () => {
      const remainingMs = await this.#redis.pttl(this.#keyPrefix + key);
      // -2: no such key; -1: no expiry.
      return remainingMs < 0 ? undefined : remainingMs;
    });
  }

  ping(): Promise<void> {
    return this.#run("ping", async () => {
      await this.#redis.ping();
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#redis.quit().then(
      () => undefined,
      // QUIT fails when the server is gone; drop the socket instead.
      () => this.#redis.disconnect(),
    );
    return this.#closing;
  }

  // Every operation is one client span (`redis.get`, `redis.compareAndSet`, …), child of the caller's.
  async #run<T>(operation: string, command: () => Promise<T>): Promise<T> {
    if (this.#closing !== undefined) throw new AppError("unavailable", `state store is closed [op=${operation}]`);
    return withSpan(
      `redis.${operation}`,
      { "db.system.name": "redis", "db.operation.name": operation },
      async () => {
        try {
          return await command();
        } catch (error) {
          throw appErrorFromRedis(error, operation, this.#connectionProblem);
        }
      },
      SpanKind.CLIENT,
    );
  }

  async #script(script: RedisScript, key: string, args: string[]): Promise<unknown> {
    try {
      return await this.#redis.evalsha(script.sha1, 1, key, ...args);
    } catch (error) {
      if (!isNoScriptError(error)) throw error;
      return await this.#redis.eval(script.source, 1, key, ...args);
    }
  }
}

/** Escapes Redis glob characters so that a MATCH pattern takes `text` literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}
