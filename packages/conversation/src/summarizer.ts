import type { Turn } from "./turn.js";

/** A session's handover note as the store keeps it. */
export interface NoteRecord {
  /** The note a model reads: objective, decisions, state, next steps, with `turn:<seq>` addresses. */
  text: string;
  /** The last seq the note covers; turns after it are "uncovered". */
  coveredThroughSeq: number;
  /** Increases by one with every update (1 for the first note). */
  version: number;
  /** Summarizer-specific state carried between updates (the extractive summarizer's facts), JSON text or "". */
  state: string;
  /** Who wrote it: a summarizer name (`extractive`, `anthropic`, `openai`) or `model` for PutNote. */
  author: string;
}

/** What a summarizer is given for one note update. */
export interface NoteUpdateInput {
  /** The session's system prompt ("" when none was sent). */
  systemPrompt: string;
  /** The session's tool schemas as JSON text ("" when none were sent). */
  toolsJson: string;
  /** The note so far, or undefined for the first note. */
  previous: NoteRecord | undefined;
  /**
   * Turns the previous note already covers, in seq order: only a vendor summarizer sends them, as the
   * session's own prefix, so the vendor's prompt cache can serve it; they are not new input to the note.
   */
  coveredTurns: Turn[];
  /** The turns to fold in: seq previous.coveredThroughSeq + 1 … in order, no gaps. Never empty. */
  newTurns: Turn[];
  /** The note's size limit in tokens. */
  maxNoteTokens: number;
  /**
   * The results Loupe saved for tool calls answered in `newTurns` (from the result events), matched by
   * `toolUseId`: a note cites their ids, so a handover points to the saved originals.
   */
  savedResults?: readonly SavedResult[];
}

/** A tool call's result Loupe saved: where the whole output can be recovered from. */
export interface SavedResult {
  toolUseId: string;
  resultId: string;
  toolName: string;
  /** `command`, `file_read`, … */
  kind: string;
  /** The file a file read named ("" otherwise). */
  path: string;
  originalTokens: number;
}

/** A summarizer's answer. */
export interface NoteDraft {
  text: string;
  /** Carried to the next update as {@link NoteRecord.state}. */
  state: string;
  /** Input tokens the vendor billed and the share of them its prompt cache served (vendor summarizers only). */
  inputTokens?: number;
  cachedInputTokens?: number;
}

/** Options of one summarize call. */
export interface SummarizeOptions {
  signal?: AbortSignal;
  /** Called while a long call is in flight (at least every few seconds), so the caller can signal progress. */
  onProgress?: () => void;
}

/**
 * Folds new turns into a note. Implementations: the offline extractive summarizer (pure, the embedded
 * default) and the Anthropic / OpenAI-compatible drivers (`@loupe/summarizer`). Errors are AppErrors:
 * `unavailable` / `deadline_exceeded` are retryable, `invalid_argument` / `permission_denied` are not.
 */
export interface Summarizer {
  /** `extractive`, `anthropic` or `openai`. */
  readonly name: string;
  summarize(input: NoteUpdateInput, options?: SummarizeOptions): Promise<NoteDraft>;
}
