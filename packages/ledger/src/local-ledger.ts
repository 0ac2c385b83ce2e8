import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { compareIds, decodeCursor, encodeCursor } from "./ledger-cursor.js";
import { matches, MAX_SCAN, type Ledger, type LedgerEntry, type LedgerPage } from "./ledger.js";

/** Options of {@link createLocalLedger}. */
export interface LocalLedgerOptions {
  /** Where each tenant's JSON-lines file lives; absent = in memory only (tests). */
  directory?: string;
  /** How long a tenant's entries are kept (its results' retention). */
  retentionMsFor: (tenant: string) => number;
  /** Clock for trimming; default Date.now. */
  nowMs?: () => number;
}

interface Stored {
  id: string;
  entry: LedgerEntry;
}

interface TenantLog {
  /** Oldest first. */
  entries: Stored[];
  lastMs: number;
  lastSeq: number;
  /** Lines in the file that trimming has dropped from `entries`. */
  dropped: number;
  /** Appends and rewrites of this tenant, one at a time. */
  queue: Promise<unknown>;
}

/**
 * The ledger of embedded mode: each tenant's entries in a JSON-lines file under `directory` (one line
 * an entry, appended; read once into memory), trimmed to the tenant's retention as entries are added
 * — the file is rewritten once trimming has dropped as many lines as it keeps. Entry ids are
 * `<ms>-<seq>` like a Redis stream's, so cursors mean the same in both modes. Without a directory it
 * keeps everything in memory. Appends are not fsynced: a crash may lose the last few entries, never
 * a saved result.
 */
export function createLocalLedger(options: LocalLedgerOptions): Ledger {
  const now = options.nowMs ?? Date.now;
  const logs = new Map<string, Promise<TenantLog>>();
  const fileOf = (tenant: string): string | undefined =>
    options.directory === undefined ? undefined : join(options.directory, `${Buffer.from(tenant, "utf8").toString("base64url") || "_"}.jsonl`);

  const load = (tenant: string): Promise<TenantLog> => {
    let log = logs.get(tenant);
    if (log === undefined) {
      log = (async () => {
        const file = fileOf(tenant);
        const entries: Stored[] = [];
        if (file !== undefined) {
          const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? "" : Promise.reject(error)));
          for (const line of text.split("\n")) {
            if (line === "") continue;
            try {
              entries.push(JSON.parse(line) as Stored);
            } catch {
              // A line cut short by a crash: the entries before and after it stand.
            }
          }
        }
        const last = entries.at(-1)?.id.split("-").map(Number) ?? [0, 0];
        return { entries, lastMs: last[0] ?? 0, lastSeq: last[1] ?? 0, dropped: 0, queue: Promise.resolve() };
      })();
      logs.set(tenant, log);
    }
    return log;
  };

  const trim = (tenant: string, log: TenantLog): void => {
    const oldest = now() - options.retentionMsFor(tenant);
    let drop = 0;
    while (drop < log.entries.length && (log.entries[drop]?.entry.timeMs ?? 0) < oldest) drop++;
    if (drop > 0) {
      log.entries.splice(0, drop);
      log.dropped += drop;
    }
  };

  const rewrite = async (file: string, log: TenantLog): Promise<void> => {
    const temporary = `${file}.${String(process.pid)}.tmp`;
    await writeFile(temporary, log.entries.map((stored) => JSON.stringify(stored) + "\n").join(""));
    await rename(temporary, file);
    log.dropped = 0;
  };

  return {
    async append(tenant, entry) {
      const log = await load(tenant);
      const run = log.queue.then(async () => {
        const ms = Math.max(entry.timeMs, log.lastMs);
        log.lastSeq = ms === log.lastMs ? log.lastSeq + 1 : 0;
        log.lastMs = ms;
        const stored = { id: `${String(ms)}-${String(log.lastSeq)}`, entry };
        log.entries.push(stored);
        trim(tenant, log);
        const file = fileOf(tenant);
        if (file === undefined) return;
        await mkdir(options.directory ?? ".", { recursive: true });
        if (log.dropped > Math.max(1000, log.entries.length)) await rewrite(file, log);
        else await appendFile(file, JSON.stringify(stored) + "\n");
      });
      log.queue = run.catch(() => undefined);
      await run;
    },
    async list(tenant, query) {
      const after = query.cursor === undefined || query.cursor === "" ? undefined : decodeCursor(query.cursor);
      const log = await load(tenant);
      const page: LedgerPage = { entries: [], nextCursor: "" };
      let scanned = 0;
      for (let index = log.entries.length - 1; index >= 0; index--) {
        const stored = log.entries[index];
        if (stored === undefined || (after !== undefined && compareIds(stored.id, after) >= 0)) continue;
        if (query.sinceMs !== undefined && stored.entry.timeMs < query.sinceMs) break;
        scanned++;
        if (matches(stored.entry, query)) page.entries.push(stored.entry);
        const more = index > 0 && (query.sinceMs === undefined || (log.entries[index - 1]?.entry.timeMs ?? 0) >= query.sinceMs);
        if ((page.entries.length >= query.limit || scanned >= MAX_SCAN) && more) {
          page.nextCursor = encodeCursor(stored.id);
          break;
        }
      }
      return page;
    },
    async deleteTenant(tenant) {
      const log = await load(tenant);
      const count = log.entries.length;
      log.entries = [];
      const file = fileOf(tenant);
      if (file !== undefined) await rm(file, { force: true });
      return count;
    },
    async close() {
      await Promise.all([...logs.values()].map(async (log) => (await log).queue));
    },
  };
}
