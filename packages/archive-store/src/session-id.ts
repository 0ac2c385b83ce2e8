import { AppError } from "@loupe/errors";

/** Longest session id any Loupe call accepts, in characters (Project, DeleteResults, the turn log; archive keys encode it). */
export const MAX_SESSION_ID_CHARS = 512;

/** @throws AppError `invalid_argument` for a session id longer than {@link MAX_SESSION_ID_CHARS} ("" is allowed: no session) */
export function checkSessionIdLength(sessionId: string): void {
  if (sessionId.length > MAX_SESSION_ID_CHARS) throw new AppError("invalid_argument", `session_id too long [max_chars=${String(MAX_SESSION_ID_CHARS)}]`);
}

/** @throws AppError `invalid_argument` for an empty or over-long session id (calls on a session's turns need one) */
export function validateSessionId(sessionId: string): void {
  if (sessionId === "") throw new AppError("invalid_argument", "session_id is required");
  checkSessionIdLength(sessionId);
}
