/** What the ledger records. */
export const LEDGER_KINDS = ["projection", "cut", "recovery", "compaction", "deletion"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** One thing Loupe did to a tenant's context, and the handle back to what it touched. */
export interface LedgerEntry {
  /** Milliseconds since the Unix epoch. */
  timeMs: number;
  kind: LedgerKind;
  source: string;
  sessionId: string;
  /** The saved original ("" when none: a deletion of a session, a compaction). */
  resultId: string;
  /** The rule in force (`sha256:…` of the app's rule, or "" for defaults). */
  ruleVersion: string;
  projectorVersion: string;
  tokensBefore: number;
  tokensAfter: number;
  /** A Recover request (JSON, snake_case) that restores what this entry took out of context; "" when nothing can be. */
  handleJson: string;
  /** One line on what happened: the tool, omissions, path, watermark, … */
  detail: string;
}

/** Which entries to list: newest first, `limit` at most, continuing after `cursor`. */
export interface LedgerQuery {
  sessionId?: string;
  source?: string;
  /** Inclusive lower bound, ms since the epoch. */
  sinceMs?: number;
  /** Inclusive upper bound, ms since the epoch. */
  untilMs?: number;
  /** Empty or absent: every kind. */
  kinds?: readonly LedgerKind[];
  cursor?: string;
  limit: number;
}

/** A page of entries, newest first; `nextCursor` "" when there is nothing older. */
export interface LedgerPage {
  entries: LedgerEntry[];
  nextCursor: string;
}

/** A tenant's ledger: appended by the gateway, read by ListEntries, REST, MCP and the console. */
export interface Ledger {
  /** Records `entry`; entries older than the tenant's retention are trimmed on the way. */
  append(tenant: string, entry: LedgerEntry): Promise<void>;
  /**
   * Lists entries, newest first.
   * @throws AppError `invalid_argument` for a cursor this ledger did not issue
   */
  list(tenant: string, query: LedgerQuery): Promise<LedgerPage>;
  /** Forgets every entry of the tenant (a tenant deleted); returns how many went. */
  deleteTenant(tenant: string): Promise<number>;
  close(): Promise<void>;
}

/** Whether `entry` passes the query's filters (not its cursor or limit). */
export function matches(entry: LedgerEntry, query: LedgerQuery): boolean {
  if (query.sessionId !== undefined && query.sessionId !== "" && entry.sessionId !== query.sessionId) return false;
  if (query.source !== undefined && query.source !== "" && entry.source !== query.source) return false;
  if (query.sinceMs !== undefined && entry.timeMs < query.sinceMs) return false;
  if (query.untilMs !== undefined && entry.timeMs > query.untilMs) return false;
  return query.kinds === undefined || query.kinds.length === 0 || query.kinds.includes(entry.kind);
}

/** Most entries one call scans before it answers with what it found and a cursor to go on (bounded work per call). */
export const MAX_SCAN = 5000;
