import { decodeEnvelope, type BusMessage } from "@loupe/events";
import { isAppError } from "@loupe/errors";
import type { Logger } from "@loupe/runtime";

/** What the worker did with one message. */
export type EventOutcome = "acked" | "terminated";

/**
 * Handles one event. Until notes exist (a later issue) the worker decodes the
 * envelope, logs it and acks; a message that is not an envelope is poison and
 * is terminated rather than redelivered forever.
 */
export function handleEvent(message: BusMessage, logger: Logger): EventOutcome {
  try {
    const envelope = decodeEnvelope(message.data);
    logger.debug("event received", { subject: message.subject, type: envelope.type, id: envelope.id, deliveryCount: message.deliveryCount });
    message.ack();
    return "acked";
  } catch (error) {
    const reason = isAppError(error) ? error.message : "undecodable event";
    logger.warn("poison event terminated", { subject: message.subject, reason });
    message.term(reason);
    return "terminated";
  }
}
