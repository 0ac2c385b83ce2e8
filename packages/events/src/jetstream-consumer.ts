import { AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError } from "@nats-io/jetstream";
import type { JetStreamClient, JetStreamManager, JsMsg } from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import { AppError } from "@loupe/errors";
import type { Subscription } from "./bus.js";
import { createDelivery, runHandler } from "./delivery.js";
import type { Delivery } from "./delivery.js";
import { appErrorFromNats } from "./jetstream-errors.js";
import { isReservedHeader } from "./options.js";
import type { ResolvedConsumeOptions } from "./options.js";
import { createSubscriptionHandle } from "./subscription-handle.js";

/**
 * Creates the durable pull consumer, or binds to it and updates its ack wait
 * and max deliveries. Explicit ack; a new durable starts at the stream's
 * first message.
 *
 * @throws AppError `failed_precondition` when the durable has another filter; `not_found` without the stream
 */
export async function ensureConsumer(jsm: JetStreamManager, stream: string, options: ResolvedConsumeOptions): Promise<void> {
  const what = `consumer [stream=${stream}, durable=${options.durable}]`;
  const limits = { ack_wait: nanos(options.ackWaitMs), max_deliver: options.maxDeliver };
  try {
    const info = await jsm.consumers.info(stream, options.durable).catch((error: unknown) => {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.ConsumerNotFound) return undefined;
      throw error;
    });
    if (!info) {
      const config = {
        durable_name: options.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: options.startAt === "new" ? DeliverPolicy.New : DeliverPolicy.All,
      };
      await jsm.consumers.add(stream, { ...config, ...limits, filter_subject: options.filterSubject });
      return;
    }
    if (info.config.filter_subject !== options.filterSubject) {
      // nats-server 2.9 would silently re-filter the durable on add: refuse instead.
      throw new AppError("failed_precondition", `durable consumer exists with another filter [${what}, filter=${info.config.filter_subject ?? ""}]`);
    }
    if (info.config.ack_wait !== limits.ack_wait || info.config.max_deliver !== limits.max_deliver) {
      await jsm.consumers.update(stream, options.durable, limits);
    }
  } catch (error) {
    throw appErrorFromNats(error, what);
  }
}

/**
 * Pulls from the durable and calls the handler, with at most `maxMessages`
 * calls in flight (the pull buffer holds as many more). Ends with an error
 * (`done` rejects) when the stream or consumer disappears.
 */
export async function startJetStreamSubscription(
  js: JetStreamClient,
  stream: string,
  options: ResolvedConsumeOptions,
  termWithReason: boolean,
): Promise<Subscription> {
  const what = `consume [stream=${stream}, durable=${options.durable}]`;
  let messages;
  try {
    const consumer = await js.consumers.get(stream, options.durable);
    messages = await consumer.consume({ max_messages: options.maxMessages, abort_on_missing_resource: true });
  } catch (error) {
    throw appErrorFromNats(error, what);
  }
  const limiter = createLimiter(options.maxMessages);
  let stopped = false;
  const loop = (async () => {
    for await (const message of messages) {
      await limiter.acquire();
      if (stopped) {
        limiter.release();
        break; // left unsettled: redelivered after its ack wait
      }
      void runHandler(deliveryFromJsMsg(message, termWithReason), options.handler).finally(() => limiter.release());
    }
  })();
  const handle = createSubscriptionHandle(async () => {
    stopped = true;
    await messages.close().catch(() => undefined);
    await loop.catch(() => undefined);
    await limiter.idle();
  }, options.signal);
  loop.then(
    () => stopped || handle.fail(new AppError("unavailable", `nats ${what} ended`)),
    (error: unknown) => stopped || handle.fail(appErrorFromNats(error, what)),
  );
  return handle.subscription;
}

function deliveryFromJsMsg(message: JsMsg, termWithReason: boolean): Delivery {
  const headers: Record<string, string> = {};
  for (const key of message.headers?.keys() ?? []) {
    if (!isReservedHeader(key)) headers[key] = message.headers?.get(key) ?? "";
  }
  const fields = {
    subject: message.subject,
    data: message.data,
    headers: Object.freeze(headers),
    seq: message.seq,
    deliveryCount: message.info.deliveryCount,
    pending: message.info.pending,
  };
  // Settlements are fire-and-forget publishes; on a closed connection the message is simply redelivered.
  const quietly = (action: () => void) => () => {
    try {
      action();
    } catch {
      // see above
    }
  };
  return createDelivery(fields, {
    ack: quietly(() => message.ack()),
    nak: (delayMs) => quietly(() => message.nak(delayMs > 0 ? delayMs : undefined))(),
    // Servers before 2.11 take "+TERM <reason>" for an unknown ack and redeliver: send the reason only when understood.
    term: (reason) => quietly(() => (termWithReason && reason ? message.term(reason) : message.term()))(),
    working: quietly(() => message.working()),
  });
}

interface Limiter {
  acquire(): Promise<void>;
  release(): void;
  idle(): Promise<void>;
}

function createLimiter(limit: number): Limiter {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const wake = (): void => {
    const current = waiters;
    waiters = [];
    for (const waiter of current) waiter();
  };
  const wait = (): Promise<void> => new Promise((resolve) => waiters.push(resolve));
  return {
    async acquire() {
      while (inFlight >= limit) await wait();
      inFlight += 1;
    },
    release() {
      inFlight -= 1;
      wake();
    },
    async idle() {
      while (inFlight > 0) await wait();
    },
  };
}
