import { AppError } from "@loupe/errors";
import type { NoteDraft, NoteRecord, NoteUpdateInput, Summarizer } from "../summarizer.js";
import { emptyExtractiveState, isExtractiveState, LIMITS } from "./extractive-state.js";
import type { ExtractiveState } from "./extractive-state.js";
import { foldSavedResults } from "./fold-results.js";
import { foldTurns } from "./fold-turns.js";
import { renderNote } from "./render-note.js";
import { leadingText } from "./text-bounds.js";

/** Options of {@link createExtractiveSummarizer}. */
export interface ExtractiveSummarizerOptions {
  /**
   * Counts the tokens of a text. Without it a token is taken as 4 characters;
   * with it the note is shrunk until its count is at most `maxNoteTokens`.
   */
  countTokens?: (text: string) => number;
}

/** Characters per token when no counter is given. */
export const CHARS_PER_TOKEN = 4;
const MAX_SHRINK_ROUNDS = 12;

/**
 * The offline extractive summarizer (name `extractive`): pure, no model call.
 * Each update parses the previous note's state, folds in `newTurns` only
 * (`coveredTurns` are already in the state) with {@link foldTurns}, and
 * renders the note with {@link renderNote} within `maxNoteTokens`. The state
 * is returned as JSON text for the next update. A previous note written by
 * another author (another summarizer, or the model through PutNote) has no
 * extractive state: its text is carried over, in part, under the objective.
 *
 * @throws AppError `invalid_argument` when `newTurns` is empty, does not
 * start right after `previous.coveredThroughSeq` (at seq 1 without a previous
 * note) or has gaps, when `maxNoteTokens` cannot hold a note, or when the
 * previous extractive state is not valid JSON of the expected shape.
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const countTokens = options.countTokens;
  return {
    name: "extractive",
    async summarize(input: NoteUpdateInput): Promise<NoteDraft> {
      checkTurns(input);
      const state = foldSavedResults(foldTurns(previousState(input.previous), input.newTurns), input.newTurns, input.savedResults);
      const through = input.newTurns[input.newTurns.length - 1]?.seq ?? 0;
      return { text: fitNote(state, through, input.maxNoteTokens, countTokens), state: JSON.stringify(state) };
    },
  };
}

function checkTurns(input: NoteUpdateInput): void {
  if (input.newTurns.length === 0) throw new AppError("invalid_argument", "no new turns to fold into the note");
  let expected = (input.previous?.coveredThroughSeq ?? 0) + 1;
  for (const turn of input.newTurns) {
    if (turn.seq !== expected) {
      throw new AppError("invalid_argument", `new turns are not contiguous [expected=${String(expected)}, seq=${String(turn.seq)}]`);
    }
    expected++;
  }
  if (!Number.isFinite(input.maxNoteTokens) || input.maxNoteTokens <= 0) {
    throw new AppError("invalid_argument", `max note tokens must be positive [maxNoteTokens=${String(input.maxNoteTokens)}]`);
  }
}

function previousState(previous: NoteRecord | undefined): ExtractiveState | undefined {
  if (previous === undefined) return undefined;
  if (previous.state === "" || previous.author !== "extractive") return carriedState(previous);
  let parsed: unknown;
  try {
    parsed = JSON.parse(previous.state) as unknown;
  } catch (error) {
    throw new AppError("invalid_argument", `previous note state is not json [version=${String(previous.version)}]`, { cause: error });
  }
  if (!isExtractiveState(parsed)) throw new AppError("invalid_argument", `previous note state has an unknown shape [version=${String(previous.version)}]`);
  // A state stored before names were kept has none; the note's word wins over a state that folded further.
  const state = { ...parsed, names: (parsed.names as ExtractiveState["names"] | undefined) ?? [] };
  return state.lastSeq > previous.coveredThroughSeq ? { ...state, lastSeq: previous.coveredThroughSeq } : state;
}

// A note without extractive state: keep its start, so the covered turns' facts are not lost.
function carriedState(previous: NoteRecord): ExtractiveState | undefined {
  const state = emptyExtractiveState();
  state.lastSeq = previous.coveredThroughSeq;
  const text = leadingText(previous.text, LIMITS.carriedChars);
  if (text !== "") state.carried = { text, throughSeq: previous.coveredThroughSeq };
  return state;
}

function fitNote(state: ExtractiveState, through: number, maxNoteTokens: number, countTokens: ((text: string) => number) | undefined): string {
  let maxChars = Math.floor(maxNoteTokens * CHARS_PER_TOKEN);
  let text = renderNote(state, through, maxChars);
  if (countTokens === undefined) return text;
  for (let round = 0; round < MAX_SHRINK_ROUNDS; round++) {
    const tokens = countTokens(text);
    if (tokens <= maxNoteTokens) return text;
    // Shrink in proportion to the overshoot, and by at least one character.
    maxChars = Math.min(text.length - 1, Math.floor((text.length * maxNoteTokens * 0.97) / tokens));
    text = renderNote(state, through, maxChars);
  }
  if (countTokens(text) <= maxNoteTokens) return text;
  throw new AppError("invalid_argument", `note does not fit the token budget [maxNoteTokens=${String(maxNoteTokens)}]`);
}
