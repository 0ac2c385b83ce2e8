import { decodeEnvelope, parseTurnAppended, retryDelayMs, TURN_APPENDED, type Bus, type BusMessage } from "@loupe/events";
import { isAppError } from "@loupe/errors";
import { isRetryable } from "@loupe/summarizer";
import type { Logger } from "@loupe/runtime";
import { deadLetter } from "./dead-letter.js";
import { updateNote, type NoteUpdaterDeps } from "./update-note.js";

/** What the worker did with one message. */
export type EventOutcome = "acked" | "retried" | "dead-lettered";

/** What the handler needs. */
export interface EventHandlerDeps {
  bus: Bus;
  durable: string;
  maxDeliver: number;
  updater: NoteUpdaterDeps;
  logger: Logger;
}

/**
 * Handles one delivery: a `turn.appended` event brings its session's note up to date; other Loupe events
 * are acknowledged. A message that cannot be decoded is poison: it goes to the dead-letter stream with the
 * reason and is never retried. A retryable failure (a store or vendor briefly unavailable) is retried with
 * a growing backoff; once deliveries run out, or for any other failure, the message is dead-lettered.
 */
export async function handleEvent(message: BusMessage, deps: EventHandlerDeps): Promise<EventOutcome> {
  const { logger } = deps;
  let tenant: string;
  let event: ReturnType<typeof parseTurnAppended>;
  try {
    const envelope = decodeEnvelope(message.data);
    if (envelope.type !== TURN_APPENDED) {
      logger.debug("event acknowledged", { subject: message.subject, type: envelope.type, id: envelope.id });
      message.ack();
      return "acked";
    }
    tenant = envelope.tenant;
    event = parseTurnAppended(envelope.data);
  } catch (error) {
    const reason = isAppError(error) ? error.message : "undecodable event";
    logger.warn("poison event dead-lettered", { subject: message.subject, reason });
    await deadLetter(deps.bus, deps.durable, message, reason);
    return "dead-lettered";
  }
  const lastAttempt = message.deliveryCount >= deps.maxDeliver;
  try {
    const outcome = await updateNote(deps.updater, tenant, event, { onProgress: () => message.working(), lastAttempt });
    message.ack();
    logger.debug("turn event handled", { sessionId: event.sessionId, seq: event.seq, outcome: outcome.kind });
    return "acked";
  } catch (error) {
    const reason = isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : "unknown failure";
    if (isRetryable(error) && !lastAttempt) {
      logger.warn("note update failed; retrying", { sessionId: event.sessionId, seq: event.seq, deliveryCount: message.deliveryCount, reason });
      message.nak(retryDelayMs(message.deliveryCount));
      return "retried";
    }
    logger.error("note update failed for good; dead-lettered", { sessionId: event.sessionId, seq: event.seq, reason });
    await deadLetter(deps.bus, deps.durable, message, reason);
    return "dead-lettered";
  }
}
