import { mkdir, open, readFile, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
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
  /** Lines of entries added since the last write, in order. */
  pending: string[];
  /** The file ends in a line a crash cut short: the next write starts on a line of its own. */
  cutShort: boolean;
  /** The file, open for appending once written to (closed for a rewrite, a deletion and close). */
  handle: FileHandle | undefined;
  /** The next write, while it has not started: entries added meanwhile go in it. */
  batch: Promise<void> | undefined;
  /** Writes and rewrites of this tenant, one at a time. */
  queue: Promise<unknown>;
}

/**
 * The ledger of embedded mode: each tenant's entries in a JSON-lines file under `directory` (one line
 * an entry, appended; read once into memory), trimmed to the tenant's retention as entries are added
 * and listed — the file is rewritten once trimming has dropped as many lines as it keeps. Entry ids are
 * `<ms>-<seq>` like a Redis stream's, so cursors mean the same in both modes. Without a directory it
 * keeps everything in memory. The file stays open for appending, and entries added while a write is
 * on its way go in one write after it. Appends are not fsynced: a crash may lose the last few entries,
 * never a saved result.
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
        let text = "";
        if (file !== undefined) {
          text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? "" : Promise.reject(error)));
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
        const cutShort = text !== "" && !text.endsWith("\n");
        return {
          entries,
          lastMs: last[0] ?? 0,
          lastSeq: last[1] ?? 0,
          dropped: 0,
          pending: [],
          cutShort,
          handle: undefined,
          batch: undefined,
          queue: Promise.resolve(),
        };
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

  const closeFile = async (log: TenantLog): Promise<void> => {
    const handle = log.handle;
    log.handle = undefined;
    await handle?.close();
  };

  // A tenant's writes run one at a time (its queue), so a write's own fields (handle, cutShort) are its
  // alone across its awaits; what appends change meanwhile (entries, dropped) is read after them.
  /* eslint-disable require-atomic-updates */
  const rewrite = async (file: string, log: TenantLog): Promise<void> => {
    const text = log.entries.map((stored) => JSON.stringify(stored) + "\n").join("");
    // Entries trimmed while the file is written are still in it: they stay counted as dropped.
    const droppedBefore = log.dropped;
    await closeFile(log);
    const temporary = `${file}.${String(process.pid)}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, file);
    log.dropped = log.dropped - droppedBefore;
    log.cutShort = false;
  };

  // Writes every line added since the last write in one append; the file stays open between writes,
  // so an entry costs at most one write call, and entries added together share one.
  const writePending = async (file: string, log: TenantLog): Promise<void> => {
    if (log.pending.length === 0) return;
    const lines = (log.cutShort ? "\n" : "") + log.pending.join("");
    log.pending = [];
    if (log.dropped > Math.max(1000, log.entries.length)) return rewrite(file, log);
    try {
      if (log.handle === undefined) {
        await mkdir(options.directory ?? ".", { recursive: true });
        log.handle = await open(file, "a");
      }
      await log.handle.appendFile(lines);
      log.cutShort = false;
    } catch (error) {
      // The next write opens the file again (it may have been removed with its folder).
      await closeFile(log).catch(() => undefined);
      throw error;
    }
  };
  /* eslint-enable require-atomic-updates */

  return {
    async append(tenant, entry) {
      const log = await load(tenant);
      const ms = Math.max(entry.timeMs, log.lastMs);
      log.lastSeq = ms === log.lastMs ? log.lastSeq + 1 : 0;
      log.lastMs = ms;
      const stored = { id: `${String(ms)}-${String(log.lastSeq)}`, entry };
      log.entries.push(stored);
      trim(tenant, log);
      const file = fileOf(tenant);
      if (file === undefined) return;
      log.pending.push(JSON.stringify(stored) + "\n");
      // Entries added before the next write starts share it (and its outcome).
      let batch = log.batch;
      if (batch === undefined) {
        batch = log.queue.then(() => {
          log.batch = undefined;
          return writePending(file, log);
        });
        log.batch = batch;
        log.queue = batch.catch(() => undefined);
      }
      await batch;
    },
    async list(tenant, query) {
      const after = query.cursor === undefined || query.cursor === "" ? undefined : decodeCursor(query.cursor);
      const log = await load(tenant);
      // Entries past the retention are never listed, though no entry came since they expired (or since a restart).
      trim(tenant, log);
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
      await log.queue;
      const count = log.entries.length;
      log.entries = [];
      log.pending = [];
      await closeFile(log);
      const file = fileOf(tenant);
      if (file !== undefined) await rm(file, { force: true });
      return count;
    },
    async close() {
      await Promise.all(
        [...logs.values()].map(async (pending) => {
          const log = await pending;
          await log.queue;
          await closeFile(log);
        }),
      );
    },
  };
}
