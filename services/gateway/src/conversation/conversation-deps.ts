import type { LedgerRecorder } from "../ledger/record-ledger.js";
import type { Summarizer } from "@loupe/conversation";
import type { Bus } from "@loupe/events";
import type { TokenCounter } from "@loupe/projection";
import type { SourceRule, SourceRules } from "@loupe/rules";
import type { Logger } from "@loupe/runtime";
import type { SessionStore } from "@loupe/session-store";
import type { ArchiveClient } from "@loupe/archive-client";

/** What the ConversationService handlers need. */
export interface ConversationDeps {
  /** Records compactions in the ledger (absent: nothing recorded). */
  recorder?: LedgerRecorder;
  archive: ArchiveClient;
  sessions: SessionStore;
  rules: SourceRules;
  /** Undefined when no event bus is configured: AppendTurns is then refused (nothing would update notes). */
  bus: Bus | undefined;
  counter: TokenCounter;
  /** The summarizer a source's rule selects (for Compact's fallback). */
  summarizerFor: (rule: SourceRule) => Summarizer;
  /** Window assumed until a session states its own. */
  defaultContextWindowTokens: number;
  /** Largest append accepted, in bytes of turns. */
  maxAppendBytes: number;
  logger: Logger;
  now: () => Date;
}

/** Sessions are named by the runtime; `source` falls back to this when a session never named one. */
export const DEFAULT_SOURCE = "default";
