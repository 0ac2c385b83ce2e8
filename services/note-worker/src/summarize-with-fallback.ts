import { createExtractiveSummarizer, type NoteDraft, type NoteUpdateInput, type Summarizer } from "@loupe/conversation";
import { isAppError } from "@loupe/errors";
import type { Logger } from "@loupe/runtime";

const RETRYABLE = new Set(["unavailable", "deadline_exceeded", "resource_exhausted", "aborted"]);
const extractive = createExtractiveSummarizer();

/** True for a failure worth another delivery (the vendor or a store is briefly unavailable). */
export function isRetryable(error: unknown): boolean {
  return isAppError(error) && RETRYABLE.has(error.code);
}

/**
 * Runs the source's summarizer. A vendor failure is retried by redelivery while deliveries remain and the
 * failure is retryable; otherwise the extractive summarizer writes the note, so notes keep flowing and the
 * log says why. A note another author wrote reaches the extractive
 * summarizer without state, so it starts its facts afresh and keeps that note's text.
 */
export async function summarizeWithFallback(
  summarizer: Summarizer,
  input: NoteUpdateInput,
  options: { onProgress: () => void; lastAttempt: boolean; logger: Logger; signal?: AbortSignal },
): Promise<{ draft: NoteDraft; author: string }> {
  const previous = input.previous;
  const fromOther = previous !== undefined && previous.author !== summarizer.name;
  const prepared: NoteUpdateInput = summarizer.name === "extractive" && fromOther ? { ...input, previous: { ...previous, state: "" } } : input;
  try {
    const draft = await summarizer.summarize(prepared, { onProgress: options.onProgress, ...(options.signal ? { signal: options.signal } : {}) });
    return { draft, author: summarizer.name };
  } catch (error) {
    if (summarizer.name === "extractive" || (isRetryable(error) && !options.lastAttempt)) throw error;
    options.logger.warn("summarizer failed; the extractive summarizer writes this note", { summarizer: summarizer.name, code: isAppError(error) ? error.code : "internal" });
    const state = previous?.author === "extractive" ? previous.state : "";
    const draft = await extractive.summarize({ ...input, previous: previous === undefined ? undefined : { ...previous, state } });
    return { draft, author: extractive.name };
  }
}
