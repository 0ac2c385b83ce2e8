import { createExtractiveSummarizer, type NoteDraft, type NoteUpdateInput, type Summarizer } from "@loupe/conversation";
import { isAppError, isRetryable, type ErrorCode } from "@loupe/errors";

const extractive = createExtractiveSummarizer();

/** What {@link summarizeWithFallback} wrote and who wrote it. */
export interface FallbackDraft {
  draft: NoteDraft;
  /** The summarizer that wrote the note (`extractive` after a fallback). */
  author: string;
  /** The error code of the summarizer that failed, when the extractive one stood in. */
  failedCode?: ErrorCode;
}

/**
 * Runs a summarizer; when a vendor fails — for good, or retryably on the `lastAttempt` (default true) —
 * the extractive summarizer writes the note instead, so notes keep coming. A note another author wrote
 * reaches the extractive summarizer without its state: it starts its facts afresh and keeps that note's
 * text. Retryable failures before the last attempt, failures of the extractive summarizer itself and
 * cancellation are thrown.
 */
export async function summarizeWithFallback(
  summarizer: Summarizer,
  input: NoteUpdateInput,
  options: { lastAttempt?: boolean; onProgress?: () => void; signal?: AbortSignal } = {},
): Promise<FallbackDraft> {
  const forExtractive = (update: NoteUpdateInput): NoteUpdateInput =>
    update.previous === undefined || update.previous.author === "extractive" ? update : { ...update, previous: { ...update.previous, state: "" } };
  const callOptions = { ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.signal ? { signal: options.signal } : {}) };
  try {
    const draft = await summarizer.summarize(summarizer.name === "extractive" ? forExtractive(input) : input, callOptions);
    return { draft, author: summarizer.name };
  } catch (error) {
    if (summarizer.name === "extractive" || options.signal?.aborted === true || (isRetryable(error) && options.lastAttempt === false)) throw error;
    const draft = await extractive.summarize(forExtractive(input));
    return { draft, author: extractive.name, failedCode: isAppError(error) ? error.code : "internal" };
  }
}
