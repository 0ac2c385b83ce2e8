import type { Bus, BusMessage, StreamConfig } from "@loupe/events";

/** The stream poison and exhausted events are moved to, with the reason. */
export const DEAD_LETTER_STREAM = "LOUPE_DEAD_LETTERS";
const DEAD_LETTER_PREFIX = "loupe_dead";
const DAY_MS = 24 * 60 * 60 * 1000;

/** The dead-letter stream: kept 30 days, at most 256 MiB. */
export function deadLetterStreamConfig(): StreamConfig {
  return { name: DEAD_LETTER_STREAM, subjects: [`${DEAD_LETTER_PREFIX}.>`], maxAgeMs: 30 * DAY_MS, maxBytes: 256 * 1024 * 1024 };
}

/**
 * Copies a message to the dead-letter stream (subject `loupe_dead.<original subject>`, headers with the
 * reason, the original subject and sequence, and the delivery count), then terminates it so it is never
 * retried again. The copy's msgId is the original sequence, so a repeated move stores one copy.
 */
export async function deadLetter(bus: Bus, durable: string, message: BusMessage, reason: string): Promise<void> {
  const headers = {
    "Loupe-Dead-Reason": reason.replace(/[\r\n]+/g, " ").slice(0, 1000),
    "Loupe-Original-Subject": message.subject,
    "Loupe-Original-Seq": String(message.seq),
    "Loupe-Deliveries": String(message.deliveryCount),
    "Loupe-Consumer": durable,
  };
  await bus.publish(`${DEAD_LETTER_PREFIX}.${message.subject}`, message.data, { headers, msgId: `dead-${durable}-${String(message.seq)}` });
  message.term(reason.slice(0, 200));
}
