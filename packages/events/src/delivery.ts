import type { BusMessage, ConsumeOptions } from "./bus.js";

/** First and largest delay of {@link retryDelayMs}, in ms. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 60_000;

/**
 * The nak delay after a handler threw, in ms: 1 s after the first delivery,
 * doubling with each delivery, at most 60 s.
 */
export function retryDelayMs(deliveryCount: number): number {
  const exponent = Math.max(0, Math.min(deliveryCount - 1, 16));
  return Math.min(RETRY_BASE_MS * 2 ** exponent, RETRY_MAX_MS);
}

/** What an adapter does for each settlement; called at most once per delivery (working() excepted). */
export interface DeliveryActions {
  ack(): void;
  nak(delayMs: number): void;
  term(reason: string | undefined): void;
  working(): void;
}

/** The plain fields of a delivery. */
export type DeliveryFields = Pick<BusMessage, "subject" | "data" | "headers" | "seq" | "deliveryCount" | "pending">;

/** A BusMessage plus whether it has been settled. */
export interface Delivery {
  readonly message: BusMessage;
  readonly settled: boolean;
}

/**
 * Wraps an adapter's actions as a BusMessage that settles once: the first
 * ack, nak or term wins, later calls (and working() after it) do nothing.
 */
export function createDelivery(fields: DeliveryFields, actions: DeliveryActions): Delivery {
  let settled = false;
  const settleWith = (action: () => void): void => {
    if (settled) return;
    settled = true;
    action();
  };
  const message: BusMessage = {
    ...fields,
    ack: () => settleWith(() => actions.ack()),
    nak: (delayMs = 0) => settleWith(() => actions.nak(Math.max(0, delayMs))),
    term: (reason) => settleWith(() => actions.term(reason)),
    working: () => {
      if (!settled) actions.working();
    },
  };
  return {
    message,
    get settled() {
      return settled;
    },
  };
}

/**
 * Calls the handler for one delivery. When it throws (or rejects) without
 * settling, naks with {@link retryDelayMs}; never rejects itself.
 */
export async function runHandler(delivery: Delivery, handler: ConsumeOptions["handler"]): Promise<void> {
  try {
    await handler(delivery.message);
  } catch {
    // The handler owns the error; the bus's part is to retry the message later.
    if (!delivery.settled) delivery.message.nak(retryDelayMs(delivery.message.deliveryCount));
  }
}
