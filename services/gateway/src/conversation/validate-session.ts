import { AppError } from "@loupe/errors";

/** Longest session id accepted, in characters. */
export const MAX_SESSION_ID_CHARS = 512;

/** @throws AppError `invalid_argument` for an empty or over-long session id */
export function validateSessionId(sessionId: string): void {
  if (sessionId === "") throw new AppError("invalid_argument", "session_id is required");
  if (sessionId.length > MAX_SESSION_ID_CHARS) throw new AppError("invalid_argument", `session_id too long [max_chars=${String(MAX_SESSION_ID_CHARS)}]`);
}
