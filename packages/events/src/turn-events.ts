import { createHash } from "node:crypto";
import { AppError } from "@loupe/errors";
import type { Bus } from "./bus.js";
import { encodeEnvelope } from "./event-envelope.js";
import { subjectFor } from "./subject-for.js";

/** The event type of an accepted turn. */
export const TURN_APPENDED = "turn.appended";

/** What a `turn.appended` event carries: where the turn is, not the turn (the log holds it). */
export interface TurnAppendedData {
  sessionId: string;
  source: string;
  seq: number;
  tokenCount: number;
}

/** The subject of a session's turn events: `loupe.turn.appended.<tenant>.<session>` (ids encoded). */
export function turnSubject(tenant: string, sessionId: string): string {
  return subjectFor("turn", "appended", tenant, sessionId);
}

/**
 * Publishes one `turn.appended` event per turn and resolves once the stream has stored them all. The
 * event id (also the msgId) is a hash of (tenant, session, seq), so a retried append is deduplicated by
 * the stream within its window, and by the note-worker's watermark after it.
 */
export async function publishTurnEvents(
  bus: Bus,
  tenant: string,
  turns: readonly TurnAppendedData[],
  now: Date,
  signal?: AbortSignal,
  headers?: Readonly<Record<string, string>>,
): Promise<void> {
  await Promise.all(
    turns.map((data) => {
      const id = createHash("sha256")
        .update(JSON.stringify([tenant, data.sessionId, data.seq]))
        .digest("hex");
      const body = encodeEnvelope({ type: TURN_APPENDED, id, tenant, time: now.toISOString(), data });
      return bus.publish(turnSubject(tenant, data.sessionId), body, {
        msgId: id,
        ...(signal ? { signal } : {}),
        ...(headers ? { headers: { ...headers } } : {}),
      });
    }),
  );
}

/** The subject filter of every turn event. */
export const TURN_EVENTS_FILTER = "loupe.turn.appended.>";

/**
 * Checks a `turn.appended` event's data.
 * @throws AppError `invalid_argument` (a poison message) naming what is wrong
 */
export function parseTurnAppended(data: unknown): TurnAppendedData {
  const record = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const { sessionId, source, seq, tokenCount } = record;
  if (typeof sessionId !== "string" || sessionId === "") throw new AppError("invalid_argument", "turn event without session_id");
  if (typeof source !== "string") throw new AppError("invalid_argument", "turn event without source");
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1)
    throw new AppError("invalid_argument", `turn event with a bad seq [seq=${String(seq)}]`);
  if (typeof tokenCount !== "number" || !Number.isSafeInteger(tokenCount) || tokenCount < 0)
    throw new AppError("invalid_argument", "turn event with a bad token count");
  return { sessionId, source, seq, tokenCount };
}
