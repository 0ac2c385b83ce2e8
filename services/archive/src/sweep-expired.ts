import { expiryPrefix, parseExpiryEntryKey, tenantFromFolder, TENANTS_PREFIX, type ArchiveStore } from "@loupe/archive-store";
import { deleteResultEntries, forEachKey } from "./delete-results.js";
import { readExpiryIntent, writeResultEntries } from "./result-entries.js";
import { readStoredRecord } from "./result-record.js";

/** What one sweep removed. */
export interface SweepOutcome {
  resultsDeleted: number;
  blobsDeleted: number;
  /** Expiry entries removed without a result: left by a Put that failed, or outdated by a repeated Put. */
  entriesRemoved: number;
}

/**
 * Deletes every result whose record expired at or before `nowMs`, for every tenant (each folder
 * `v1/<tenant>/` of the store), walking each tenant's expiry entries soonest first and stopping at the
 * first later one.
 * An entry whose record is missing is what a failed Put left: its session entry, reference marker and (when
 * unused) blob go too. Safe to run from several archive replicas at once (every step is idempotent).
 *
 * @throws AppError from the store (`unavailable`, `cancelled`, …); the next sweep continues where this stopped.
 */
export async function sweepExpired(store: ArchiveStore, nowMs: number, signal?: AbortSignal): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { resultsDeleted: 0, blobsDeleted: 0, entriesRemoved: 0 };
  for await (const folder of store.listFolders(TENANTS_PREFIX, signal ? { signal } : {})) {
    const tenant = tenantFromFolder(folder);
    if (tenant !== undefined) await sweepTenant(store, tenant, nowMs, outcome, signal);
  }
  return outcome;
}

async function* dueEntries(store: ArchiveStore, prefix: string, nowMs: number, signal?: AbortSignal): AsyncGenerator<string> {
  for await (const key of store.list(prefix, signal ? { signal } : {})) {
    if (parseExpiryEntryKey(prefix, key).expiresAtMs > nowMs) return;
    yield key;
  }
}

async function sweepTenant(store: ArchiveStore, tenant: string, nowMs: number, outcome: SweepOutcome, signal?: AbortSignal): Promise<void> {
  const prefix = expiryPrefix(tenant);
  const options = signal ? { signal } : {};
  await forEachKey(dueEntries(store, prefix, nowMs, signal), async (key) => {
    const { expiresAtMs, resultId } = parseExpiryEntryKey(prefix, key);
    const record = await readStoredRecord(store, tenant, resultId, signal);
    // Entries are swept several at once: each count is added after its await, never across one.
    if (record && record.expiresAtMs <= nowMs) {
      const blobsDeleted = await deleteResultEntries(store, tenant, record, nowMs, signal);
      outcome.blobsDeleted += blobsDeleted;
      outcome.resultsDeleted++;
    } else if (!record) {
      const intent = await readExpiryIntent(store, key, signal);
      const blobsDeleted = intent ? await deleteResultEntries(store, tenant, { resultId, expiresAtMs, ...intent }, nowMs, signal) : 0;
      outcome.blobsDeleted += blobsDeleted;
      // A Put of this id may have written its record meanwhile: put its markers back (they only keep
      // things alive), so it never loses its blob to a later delete of another result.
      const late = intent && (await readStoredRecord(store, tenant, resultId, signal));
      if (late) await writeResultEntries(store, tenant, late, signal);
      outcome.entriesRemoved++;
    } else {
      outcome.entriesRemoved++;
    }
    await store.delete(key, options);
  });
}

/** A running sweeper. */
export interface Sweeper {
  /** Stops the timer and cancels a sweep in progress; resolves once it has ended. */
  stop(): Promise<void>;
}

/** What {@link startSweeper} needs. */
export interface SweeperOptions {
  store: ArchiveStore;
  /** Between the end of one sweep and the start of the next; the first runs one interval after start. */
  intervalMs: number;
  now: () => number;
  /** Sees each sweep's outcome, or its error (the sweeper keeps running). */
  onSweep: (outcome: SweepOutcome | undefined, error?: unknown) => void;
}

/** Runs {@link sweepExpired} every `intervalMs`, one sweep at a time, on an unref'd timer. */
export function startSweeper(options: SweeperOptions): Sweeper {
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    timer = setTimeout(() => {
      running = sweepExpired(options.store, options.now(), controller.signal)
        .then(
          (outcome) => options.onSweep(outcome),
          (error: unknown) => {
            if (!controller.signal.aborted) options.onSweep(undefined, error);
          },
        )
        .finally(() => {
          running = undefined;
          if (!controller.signal.aborted) schedule();
        });
    }, options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
