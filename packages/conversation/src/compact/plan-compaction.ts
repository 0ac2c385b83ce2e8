import type { Turn } from "../turn.js";

/** Share of the window kept free for the difference between Loupe's token counts and the model's. */
export const COMPACT_SAFETY_MARGIN = 0.05;
/** Largest share of the room a fallback note may take; the rest keeps recent turns verbatim. */
export const FALLBACK_NOTE_SHARE = 0.25;
/** A fallback note never gets more tokens than this. */
export const MAX_FALLBACK_NOTE_TOKENS = 8000;

/** What the plan is made from. */
export interface CompactionInput {
  contextLimitTokens: number;
  reserveTokens: number;
  /** System prompt plus tools. */
  prefixTokens: number;
  /** The note, when one exists: its covered seq and size. */
  note: { coveredThroughSeq: number; tokens: number } | undefined;
  /** The turns after the note's covered seq (all turns when there is no note), in seq order. */
  uncovered: readonly Turn[];
}

/** What Compact does. */
export type CompactionPlan =
  | {
      path: "prepared";
      /** Turns after this seq go in verbatim; the note (if any) stands for the rest. */
      watermarkSeq: number;
      keep: Turn[];
      /** Tokens of prefix + note + kept turns. */
      tokens: number;
      room: number;
      reason: string;
    }
  | {
      path: "fallback";
      /** Fold these turns into the note now (the older middle). */
      summarize: Turn[];
      /** Then keep these verbatim. */
      keep: Turn[];
      /** The budget of the new note, in tokens. */
      noteBudgetTokens: number;
      room: number;
      reason: string;
    }
  | { path: "impossible"; room: number; reason: string };

const sum = (turns: readonly Turn[]): number => turns.reduce((total, turn) => total + turn.tokenCount, 0);

/**
 * Decides how to compact a session into `context_limit − reserve` tokens (less a safety margin): PREPARED
 * when the note and the turns it does not cover already fit (no model call), else FALLBACK: which older
 * turns to summarize now and which recent turns to keep, with a note budget chosen so the result fits.
 * Pure and deterministic.
 */
export function planCompaction(input: CompactionInput): CompactionPlan {
  const usable = Math.max(0, input.contextLimitTokens - input.reserveTokens);
  const room = Math.floor(usable * (1 - COMPACT_SAFETY_MARGIN)) - input.prefixTokens;
  if (room <= 0) {
    return {
      path: "impossible",
      room,
      reason: `system prompt and tools (${String(input.prefixTokens)} tokens) leave no room in ${String(usable)} tokens less the ${String(COMPACT_SAFETY_MARGIN * 100)}% margin`,
    };
  }
  const noteTokens = input.note?.tokens ?? 0;
  const uncoveredTokens = sum(input.uncovered);
  const watermarkSeq = input.note?.coveredThroughSeq ?? 0;
  if (noteTokens + uncoveredTokens <= room) {
    const reason =
      input.note === undefined
        ? "the whole history fits; no note needed"
        : `the note covers through turn:${String(watermarkSeq)} and the ${String(input.uncovered.length)} turns after it fit`;
    return { path: "prepared", watermarkSeq, keep: [...input.uncovered], tokens: input.prefixTokens + noteTokens + uncoveredTokens, room, reason };
  }
  const noteBudgetTokens = Math.max(1, Math.min(MAX_FALLBACK_NOTE_TOKENS, Math.floor(room * FALLBACK_NOTE_SHARE)));
  const keepBudget = room - noteBudgetTokens;
  let kept = 0;
  let first = input.uncovered.length;
  while (first > 0) {
    const tokens = input.uncovered[first - 1]?.tokenCount ?? 0;
    if (kept + tokens > keepBudget) break;
    kept += tokens;
    first -= 1;
  }
  // Always fold at least one turn in: otherwise nothing would shrink.
  if (first === 0) first = 1;
  const why =
    input.note === undefined
      ? `no note yet and the history (${String(uncoveredTokens)} tokens) does not fit in ${String(room)}`
      : `the note lags: note ${String(noteTokens)} + ${String(input.uncovered.length)} uncovered turns (${String(uncoveredTokens)} tokens) exceed ${String(room)}`;
  return { path: "fallback", summarize: input.uncovered.slice(0, first), keep: input.uncovered.slice(first), noteBudgetTokens, room, reason: why };
}
