import { timestampDate, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { AppError } from "@loupe/errors";
import type { ServiceHandlers } from "@loupe/grpc";
import { LEDGER_KINDS, type Ledger, type LedgerEntry, type LedgerKind, type LedgerQuery } from "@loupe/ledger";
import { LedgerEntryKind, type LedgerEntry as LedgerEntryMessage, type LedgerService, type ListEntriesRequest } from "@loupe/proto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { LedgerEntrySchema } from "@loupe/proto";

/** Entries a page holds when the request names no limit, and at most. */
export const DEFAULT_LEDGER_LIMIT = 50;
export const MAX_LEDGER_LIMIT = 500;

const KIND_OF: Record<LedgerKind, LedgerEntryKind> = {
  projection: LedgerEntryKind.PROJECTION,
  cut: LedgerEntryKind.CUT,
  recovery: LedgerEntryKind.RECOVERY,
  compaction: LedgerEntryKind.COMPACTION,
  deletion: LedgerEntryKind.DELETION,
};

/** A ledger kind's name from the enum (`projection`, …), or undefined for UNSPECIFIED or an unknown number. */
export function kindName(kind: LedgerEntryKind): LedgerKind | undefined {
  return LEDGER_KINDS.find((name) => KIND_OF[name] === kind);
}

/**
 * The query a ListEntries request asks for.
 * @throws AppError `invalid_argument` for a limit over 500, an unknown kind, or `since` after `until`
 */
export function ledgerQueryOf(request: ListEntriesRequest): LedgerQuery {
  if (request.limit > MAX_LEDGER_LIMIT)
    throw new AppError("invalid_argument", `limit must be at most ${String(MAX_LEDGER_LIMIT)} [limit=${String(request.limit)}]`);
  const kinds = request.kinds.map((kind) => {
    const name = kindName(kind);
    if (name === undefined) throw new AppError("invalid_argument", `kinds holds an unknown ledger entry kind [kind=${String(kind)}]`);
    return name;
  });
  const sinceMs = request.since === undefined ? undefined : timestampDate(request.since).getTime();
  const untilMs = request.until === undefined ? undefined : timestampDate(request.until).getTime();
  if (sinceMs !== undefined && untilMs !== undefined && sinceMs > untilMs) throw new AppError("invalid_argument", "since is after until");
  return {
    limit: request.limit === 0 ? DEFAULT_LEDGER_LIMIT : request.limit,
    ...(request.sessionId === "" ? {} : { sessionId: request.sessionId }),
    ...(request.source === "" ? {} : { source: request.source }),
    ...(sinceMs === undefined ? {} : { sinceMs }),
    ...(untilMs === undefined ? {} : { untilMs }),
    ...(kinds.length === 0 ? {} : { kinds }),
    ...(request.cursor === "" ? {} : { cursor: request.cursor }),
  };
}

const clamp = (tokens: number): number => Math.min(Math.max(0, Math.round(tokens)), 0xffffffff);

/** An entry as the API sends it. */
export function entryMessage(entry: LedgerEntry): MessageInitShape<typeof LedgerEntrySchema> {
  return {
    time: timestampFromMs(entry.timeMs),
    kind: KIND_OF[entry.kind],
    source: entry.source,
    sessionId: entry.sessionId,
    resultId: entry.resultId,
    ruleVersion: entry.ruleVersion,
    projectorVersion: entry.projectorVersion,
    tokensBefore: clamp(entry.tokensBefore),
    tokensAfter: clamp(entry.tokensAfter),
    handleJson: entry.handleJson,
    detail: entry.detail,
  };
}

/** The LedgerService handlers for one tenant. */
export function createLedgerHandlers(ledger: Ledger, tenant: string): ServiceHandlers<typeof LedgerService> {
  return {
    async listEntries(request) {
      const page = await ledger.list(tenant, ledgerQueryOf(request));
      return { entries: page.entries.map(entryMessage), nextCursor: page.nextCursor };
    },
  };
}

export type { LedgerEntryMessage };
