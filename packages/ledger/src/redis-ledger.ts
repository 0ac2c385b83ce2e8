import { AppError } from "@loupe/errors";
import { Redis } from "ioredis";
import { decodeCursor, encodeCursor } from "./ledger-cursor.js";
import { matches, MAX_SCAN, type Ledger, type LedgerEntry, type LedgerPage } from "./ledger.js";

/** Options of {@link createRedisLedger}. */
export interface RedisLedgerOptions {
  url: string;
  /** How long a tenant's entries are kept (its results' retention). */
  retentionMsFor: (tenant: string) => number;
  /** Prepended to every key (tests, several deployments on one Redis). */
  keyPrefix?: string;
  nowMs?: () => number;
}

/** Entries read per XREVRANGE while filling a page. */
const BATCH = 200;

/**
 * The ledger of distributed mode: Redis Streams, one per tenant (`…ledger:<tenant>`) and one per
 * session (`…ledger:<tenant>:session:<id>`), so a session's page reads only its own entries. Each
 * XADD trims the stream to the tenant's retention (MINID, approximate), a list never returns an entry
 * past it, and the stream's ids
 * (`<ms>-<seq>`) are the time filter: `since` and `until` are id ranges. Every gateway replica
 * appends to and reads the same streams.
 *
 * @throws AppError `invalid_argument` when `url` is not a redis:// or rediss:// URL
 */
export function createRedisLedger(options: RedisLedgerOptions): Ledger {
  if (!/^rediss?:\/\//.test(options.url)) throw new AppError("invalid_argument", "redis url must start with redis:// or rediss://");
  const redis = new Redis(options.url, {
    connectTimeout: 2000,
    commandTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    disconnectTimeout: 200,
  });
  redis.on("error", () => undefined);
  const now = options.nowMs ?? Date.now;
  const prefix = `${options.keyPrefix ?? ""}loupe:ledger:`;
  const tenantKey = (tenant: string): string => prefix + encodeURIComponent(tenant);
  const sessionKey = (tenant: string, sessionId: string): string => `${tenantKey(tenant)}:session:${encodeURIComponent(sessionId)}`;
  const failed = (what: string, error: unknown): AppError =>
    new AppError("unavailable", `ledger ${what} failed [reason=${error instanceof Error ? error.message : String(error)}]`, { cause: error });

  return {
    async append(tenant, entry) {
      const minId = String(Math.max(0, now() - options.retentionMsFor(tenant)));
      const value = JSON.stringify(entry);
      const keys = entry.sessionId === "" ? [tenantKey(tenant)] : [tenantKey(tenant), sessionKey(tenant, entry.sessionId)];
      // The entry's own time is its id (`<ms>-*`), so `since`/`until` and retention are the entry's times.
      // A replica whose clock is behind the stream's last id gets the next id instead (`*`).
      const add = async (ids: readonly string[], targets: readonly string[]): Promise<string[]> => {
        const pipeline = redis.pipeline();
        targets.forEach((key, index) => {
          pipeline.xadd(key, "MINID", "~", minId, ids[index] ?? "*", "e", value);
          // A session stream nobody writes to again goes when its last entry would have been trimmed.
          pipeline.pexpire(key, options.retentionMsFor(tenant));
        });
        const results = (await pipeline.exec()) ?? [];
        const behind: string[] = [];
        targets.forEach((key, index) => {
          const failure = results[index * 2]?.[0];
          if (failure === null || failure === undefined) return;
          if (/equal or smaller than the target stream top item/.test(failure.message)) behind.push(key);
          else throw failure;
        });
        return behind;
      };
      try {
        const behind = await add(
          keys.map(() => `${String(entry.timeMs)}-*`),
          keys,
        );
        if (behind.length > 0)
          await add(
            behind.map(() => "*"),
            behind,
          );
      } catch (error) {
        throw failed("append", error);
      }
    },
    async list(tenant, query) {
      const key = query.sessionId !== undefined && query.sessionId !== "" ? sessionKey(tenant, query.sessionId) : tenantKey(tenant);
      let end =
        query.cursor !== undefined && query.cursor !== "" ? `(${decodeCursor(query.cursor)}` : query.untilMs === undefined ? "+" : String(query.untilMs);
      // XADD's trimming is approximate and runs only as entries come: entries past the retention are left out here.
      const oldest = Math.max(0, now() - options.retentionMsFor(tenant));
      const start = String(Math.max(query.sinceMs ?? 0, oldest));
      const page: LedgerPage = { entries: [], nextCursor: "" };
      let scanned = 0;
      try {
        for (;;) {
          const batch = await redis.xrevrange(key, end, start, "COUNT", BATCH);
          for (const [index, [id, fields]] of batch.entries()) {
            scanned++;
            const entry = JSON.parse(fields[1] ?? "{}") as LedgerEntry;
            if (matches(entry, query)) page.entries.push(entry);
            const more = index < batch.length - 1 || batch.length === BATCH;
            if ((page.entries.length >= query.limit || scanned >= MAX_SCAN) && more) {
              page.nextCursor = encodeCursor(id);
              return page;
            }
          }
          if (batch.length < BATCH) return page;
          end = `(${batch.at(-1)?.[0] ?? "0-0"}`;
        }
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw failed("read", error);
      }
    },
    async deleteTenant(tenant) {
      try {
        // Counted once: every entry is in the tenant's stream (a session's stream holds copies).
        const count = await redis.xlen(tenantKey(tenant));
        let cursor = "0";
        do {
          // The tenant's own session streams only (`team` must not match `team2`'s).
          const [next, keys] = await redis.scan(cursor, "MATCH", `${tenantKey(tenant)}:session:*`, "COUNT", 500);
          cursor = next;
          if (keys.length > 0) await redis.unlink(...keys);
        } while (cursor !== "0");
        await redis.unlink(tenantKey(tenant));
        return count;
      } catch (error) {
        throw failed("delete", error);
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
