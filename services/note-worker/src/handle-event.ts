import {
  decodeEnvelope,
  parseResultProjected,
  parseTurnAppended,
  RESULT_PROJECTED,
  retryDelayMs,
  TURN_APPENDED,
  type Bus,
  type BusMessage,
  type ResultProjectedData,
  type TurnAppendedData,
} from "@loupe/events";
import { isAppError } from "@loupe/errors";
import { isRetryable } from "@loupe/errors";
import type { Logger } from "@loupe/runtime";
import { countMetric, setGaugeMetric, withExtractedContext, withSpan } from "@loupe/telemetry";
import { deadLetter } from "./dead-letter.js";
import { updateNote, type NoteUpdaterDeps } from "./update-note.js";

/** What the worker did with one message. */
export type EventOutcome = "acked" | "retried" | "deferred" | "dead-lettered";

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
 * a growing backoff; once deliveries run out, or for any other failure, the message is dead-lettered. An event
 * that finds its session held by another run is redelivered after the lease time, so a holder that died
 * mid-run (its lease left to lapse) never leaves a session's last turns unread.
 */
export async function handleEvent(message: BusMessage, deps: EventHandlerDeps): Promise<EventOutcome> {
  if (message.deliveryCount > 1) countMetric("loupe.events.redelivered");
  if (message.pending !== undefined) setGaugeMetric("loupe.events.pending", message.pending);
  // The publisher's trace goes on here (its headers carry the W3C trace context).
  const outcome = await withExtractedContext(message.headers, () =>
    withSpan(
      "note-worker.handle_event",
      { "messaging.system": "nats", "messaging.destination.name": message.subject, "messaging.message.delivery_count": message.deliveryCount },
      async (span) => {
        const handled = await handleDelivery(message, deps);
        span.setAttribute("loupe.outcome", handled);
        return handled;
      },
    ),
  );
  countMetric("loupe.events.handled", { outcome });
  return outcome;
}

async function handleDelivery(message: BusMessage, deps: EventHandlerDeps): Promise<EventOutcome> {
  const { logger } = deps;
  let event: { tenant: string } & ({ type: "turn"; data: TurnAppendedData } | { type: "result"; data: ResultProjectedData });
  try {
    const envelope = decodeEnvelope(message.data);
    if (envelope.type === RESULT_PROJECTED) event = { type: "result", tenant: envelope.tenant, data: parseResultProjected(envelope.data) };
    else if (envelope.type === TURN_APPENDED) event = { type: "turn", tenant: envelope.tenant, data: parseTurnAppended(envelope.data) };
    else {
      logger.debug("event acknowledged", { subject: message.subject, type: envelope.type, id: envelope.id });
      message.ack();
      return "acked";
    }
  } catch (error) {
    const reason = isAppError(error) ? error.message : "undecodable event";
    logger.warn("poison event dead-lettered", { subject: message.subject, reason });
    await deadLetter(deps.bus, deps.durable, message, reason);
    return "dead-lettered";
  }
  if (event.type === "result") {
    const { tenant, data } = event;
    return rememberResult(message, tenant, data, deps).catch((error: unknown) =>
      settleFailure(message, error, deps, "saved result not remembered", { sessionId: data.sessionId, resultId: data.resultId }),
    );
  }
  const { tenant, data } = event;
  const lastAttempt = message.deliveryCount >= deps.maxDeliver;
  try {
    const outcome = await withSpan(
      "note-worker.update_note",
      { "loupe.tenant": tenant, "loupe.session_id": data.sessionId, "loupe.source": data.source, "loupe.seq": data.seq },
      async (span) => {
        const result = await updateNote(deps.updater, tenant, data, { onProgress: () => message.working(), lastAttempt });
        span.setAttributes({ "loupe.outcome": result.kind, "loupe.note_updates": result.kind === "updated" ? result.updates : 0 });
        return result;
      },
    );
    if (outcome.kind === "deferred" && !lastAttempt) {
      // Another run holds the session and was asked to run once more. Should that run's process have died,
      // nobody would: so this event comes back once the lease has lapsed, and then either finds its turn
      // seen (the holder ran) or takes the session over itself.
      message.nak(deps.updater.leaseMs);
      logger.debug("turn event deferred", { sessionId: data.sessionId, seq: data.seq, deliveryCount: message.deliveryCount });
      return "deferred";
    }
    message.ack();
    logger.debug("turn event handled", { sessionId: data.sessionId, seq: data.seq, outcome: outcome.kind });
    return "acked";
  } catch (error) {
    return settleFailure(message, error, deps, "note update", { sessionId: data.sessionId, seq: data.seq });
  }
}

/**
 * A handled event that failed: retried with a growing backoff while the failure is retryable and
 * deliveries remain, else dead-lettered with the reason.
 */
async function settleFailure(
  message: BusMessage,
  error: unknown,
  deps: EventHandlerDeps,
  what: string,
  fields: Record<string, unknown>,
): Promise<EventOutcome> {
  const reason = isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : "unknown failure";
  if (isRetryable(error) && message.deliveryCount < deps.maxDeliver) {
    deps.logger.warn(`${what} failed; retrying`, { ...fields, deliveryCount: message.deliveryCount, reason });
    message.nak(retryDelayMs(message.deliveryCount));
    return "retried";
  }
  deps.logger.error(`${what} failed for good; dead-lettered`, { ...fields, reason });
  await deadLetter(deps.bus, deps.durable, message, reason);
  return "dead-lettered";
}

/**
 * A `result.projected` event: the saved result of a tool call is remembered for the session, so the
 * note that folds that call in cites the result id (a handover points to saved originals). A result
 * with no tool_use_id cannot be matched to a call and is only acknowledged.
 */
async function rememberResult(message: BusMessage, tenant: string, data: ResultProjectedData, deps: EventHandlerDeps): Promise<EventOutcome> {
  if (data.toolUseId !== "") {
    const { toolUseId, resultId, toolName, kind, path, originalTokens } = data;
    await deps.updater.sessions.putSavedResult(tenant, data.sessionId, { toolUseId, resultId, toolName, kind, path, originalTokens });
  }
  deps.logger.debug("result event handled", { sessionId: data.sessionId, resultId: data.resultId });
  message.ack();
  return "acked";
}
