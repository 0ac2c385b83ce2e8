import type { NoteUpdateInput } from "@loupe/conversation";
import { AppError } from "@loupe/errors";

/** Options shared by the vendor summarizers. */
export interface VendorSummarizerOptions {
  /** The API key itself (see `resolveApiKey` for references); never logged or put in an error. */
  apiKey: string;
  /** The model name the vendor knows. */
  model: string;
  /** The API's base URL. Default: the vendor's public endpoint. */
  baseURL?: string;
  /** The answer's token limit. Default: {@link defaultMaxOutputTokens} of the update. */
  maxOutputTokens?: number;
  /** Milliseconds one request may take. Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** Default request timeout: two minutes (a long session's note can take a while to write). */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** The default answer limit: twice the note's limit, at least 1,024, so the note is not cut off. */
export function defaultMaxOutputTokens(input: NoteUpdateInput): number {
  return Math.max(1_024, input.maxNoteTokens * 2);
}

/** Throws `invalid_argument` for options no request could succeed with (never naming the key). */
export function checkOptions(name: string, options: VendorSummarizerOptions): void {
  const problems: string[] = [];
  if (options.apiKey.trim() === "") problems.push("apiKey is empty");
  if (options.model.trim() === "") problems.push("model is empty");
  if (options.maxOutputTokens !== undefined && !(Number.isInteger(options.maxOutputTokens) && options.maxOutputTokens > 0))
    problems.push("maxOutputTokens must be a positive integer");
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) problems.push("timeoutMs must be positive");
  if (problems.length > 0) throw new AppError("invalid_argument", `${name} summarizer options invalid [${problems.join(", ")}]`);
}

/** Throws `invalid_argument` for an update input no request should be made for. */
export function checkInput(input: NoteUpdateInput): void {
  if (input.newTurns.length === 0) throw new AppError("invalid_argument", "note update has no new turns");
  if (!(Number.isInteger(input.maxNoteTokens) && input.maxNoteTokens > 0))
    throw new AppError("invalid_argument", `note size limit must be a positive integer [maxNoteTokens=${String(input.maxNoteTokens)}]`);
}
