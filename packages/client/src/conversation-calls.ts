import type {
  AppendTurnsRequestSchema,
  AppendTurnsResponseSchema,
  CompactRequestSchema,
  CompactResponseSchema,
  EndSessionRequestSchema,
  EndSessionResponseSchema,
  GetNoteRequestSchema,
  GetNoteResponseSchema,
  PutNoteRequestSchema,
  PutNoteResponseSchema,
  ReadHistoryRequestSchema,
  ReadHistoryResponseSchema,
  RequestHandoverRequestSchema,
  RequestHandoverResponseSchema,
  SearchHistoryRequestSchema,
  SearchHistoryResponseSchema,
} from "@loupe/proto";
import type { LoupeCall } from "./loupe-call.js";

/**
 * The ConversationService calls of the SDK. `appendTurns` is retried on `unavailable` (each seq is
 * written once, so a retry is counted as duplicates), as are the reads and `compact`; `putNote` and
 * `endSession` are attempted once.
 */
export interface ConversationCalls {
  /** Streams turns to the session's log; answers the session's tokens and whether compaction is due (retried). */
  appendTurns: LoupeCall<typeof AppendTurnsRequestSchema, typeof AppendTurnsResponseSchema>;
  /** The context to swap in at the window's limit: PREPARED from the note, or FALLBACK (retried). */
  compact: LoupeCall<typeof CompactRequestSchema, typeof CompactResponseSchema>;
  /** Turns by address, range or cursor within a budget (retried). */
  readHistory: LoupeCall<typeof ReadHistoryRequestSchema, typeof ReadHistoryResponseSchema>;
  /** Turns whose text holds a query (retried). */
  searchHistory: LoupeCall<typeof SearchHistoryRequestSchema, typeof SearchHistoryResponseSchema>;
  /** The session's note, watermark and lag (retried). */
  getNote: LoupeCall<typeof GetNoteRequestSchema, typeof GetNoteResponseSchema>;
  /** Hands over a note the model wrote itself (not retried). */
  putNote: LoupeCall<typeof PutNoteRequestSchema, typeof PutNoteResponseSchema>;
  /** Releases the session's state; its log stays readable (not retried). */
  endSession: LoupeCall<typeof EndSessionRequestSchema, typeof EndSessionResponseSchema>;
  /** Asks for a handover at a natural point: AppendTurns reports compaction_due until the next Compact (retried: marking twice is marking once). */
  requestHandover: LoupeCall<typeof RequestHandoverRequestSchema, typeof RequestHandoverResponseSchema>;
}
