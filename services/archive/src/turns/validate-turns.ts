import { AppError } from "@loupe/errors";
import type { StoredTurn } from "@loupe/proto";

/** Turns accepted in one append. */
export const MAX_TURNS_PER_APPEND = 1000;

/** @throws AppError `invalid_argument` for no turns, too many, a seq of 0, a repeated seq or an empty body */
export function validateStoredTurns(turns: readonly StoredTurn[]): void {
  if (turns.length === 0) throw new AppError("invalid_argument", "turns is empty");
  if (turns.length > MAX_TURNS_PER_APPEND) throw new AppError("invalid_argument", `too many turns in one append [max=${String(MAX_TURNS_PER_APPEND)}]`);
  const seen = new Set<number>();
  for (const turn of turns) {
    if (turn.seq === 0) throw new AppError("invalid_argument", "turn seq must be 1 or more");
    if (seen.has(turn.seq)) throw new AppError("invalid_argument", `turn seq repeated in one append [seq=${String(turn.seq)}]`);
    if (turn.turnJson.byteLength === 0) throw new AppError("invalid_argument", `turn has no body [seq=${String(turn.seq)}]`);
    seen.add(turn.seq);
  }
}
