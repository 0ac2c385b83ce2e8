import type { ArchiveClient } from "@loupe/archive-client";
import type { ResultProjectedData } from "@loupe/events";
import type { CompiledRule, TokenCounter, TokenEncoding, ViewSpec } from "@loupe/projection";
import type { SourceRules } from "@loupe/rules";
import type { Logger } from "@loupe/runtime";
import type { SessionStore } from "@loupe/session-store";
import type { StateStore } from "@loupe/state-store";
import type { PathRevisions } from "../path-revisions.js";
import type { TokenCountPool } from "./count-pool.js";

/** One projection, as the result event and the ledger see it. */
export interface Projected {
  /** Whether the original was saved (`result.resultId` set). */
  saved: boolean;
  /** The source's rule version in force (0 = defaults). */
  ruleVersion: number;
  omissions: number;
  result: ResultProjectedData;
}

/** What Project needs. */
export interface ProjectDeps {
  archive: ArchiveClient;
  /** The counter of each encoding (one per process: they are stateless). */
  counterFor: (encoding: TokenEncoding) => TokenCounter;
  /** Threads that count long originals exactly while the call projects and saves (they count as `counterFor`'s counters); undefined: counted in this thread. */
  countPool?: TokenCountPool;
  /**
   * Project calls running in this gateway now (Project keeps the count): a call that is not alone is
   * projected whole in a thread of `countPool` when one is free, so this thread serves the others meanwhile.
   * Undefined: every call projects in this thread.
   */
  running?: { calls: number };
  maxResultBytes: number;
  maxViewBytes: number;
  defaultBudgetTokens: number;
  archiveTimeoutMs: number;
  resultIdSecret: string;
  /** Secret patterns masked before anything is saved or shown; undefined = redaction off. */
  redactionRules: readonly CompiledRule[] | undefined;
  /** Field views from configuration (LOUPE_VIEW_SPECS_FILE). */
  viewSpecs: readonly ViewSpec[];
  /** Per-source rules (their budget applies when the request gives none). */
  sourceRules: SourceRules;
  /** Shared state (rule pins of the history cut). */
  state: StateStore;
  /** Session state released with a session's or tenant's data (DeleteResults). */
  sessions?: SessionStore;
  /** Latest revision per (tenant, session, path) for file reads. */
  pathRevisions: PathRevisions;
  logger: Logger;
  /** Told when a save failed and the answer went fail-open. */
  onArchiveFailure: (error: unknown) => void;
  /** Told of every projection once its answer is made (the result event, the ledger): it must not delay the answer. */
  onProjected?: (tenant: string, projected: Projected) => void;
  /** Told how long each save took (a failed one: archiveTimeoutMs), so admission can adapt to the archive. */
  onArchiveSave?: (ms: number) => void;
}
