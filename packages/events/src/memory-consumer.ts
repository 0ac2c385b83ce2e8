import type { ConsumeOptions } from "./bus.js";
import { createDelivery, runHandler } from "./delivery.js";
import type { ConsumerHost, ConsumerState, StoredMessage } from "./memory-types.js";

interface Entry {
  count: number;
  /** Bumped on every delivery and nak, so a settlement of an older delivery cannot nak or extend the current one. */
  token: number;
  waiting: boolean;
  timer: NodeJS.Timeout | undefined;
}

interface Subscriber {
  readonly maxMessages: number;
  readonly handler: ConsumeOptions["handler"];
  inFlight: number;
  readonly idleWaiters: (() => void)[];
}

/**
 * The embedded durable pull consumer, with JetStream's semantics: explicit
 * ack, redelivery after the ack wait, nak with delay, term, working, max
 * deliveries, and work shared among every subscriber bound to it.
 */
export class MemoryConsumer {
  readonly #host: ConsumerHost;
  readonly #state: Omit<ConsumerState, "pending">;
  readonly #pending = new Map<number, Entry>();
  readonly #ready: number[] = [];
  readonly #subscribers: Subscriber[] = [];
  #cursor = 0;
  #scheduled = false;
  #closing = false;
  #closed = false;

  constructor(host: ConsumerHost, state: ConsumerState) {
    this.#host = host;
    const { pending, ...rest } = state;
    this.#state = { ...rest };
    // After a restart nobody holds the pending deliveries any more: offer them again at once.
    for (const [seq, count] of Object.entries(pending)) {
      if (count >= state.maxDeliver) continue;
      this.#pending.set(Number(seq), { count, token: 0, waiting: true, timer: undefined });
      this.#insertReady(Number(seq));
    }
  }

  /** The state to persist. */
  get state(): ConsumerState {
    const pending: Record<string, number> = {};
    for (const [seq, entry] of this.#pending) pending[String(seq)] = entry.count;
    return { ...this.#state, pending };
  }

  get filterSubject(): string {
    return this.#state.filterSubject;
  }

  /** Changes the ack wait and max deliveries for deliveries from now on. */
  configure(ackWaitMs: number, maxDeliver: number): void {
    if (ackWaitMs === this.#state.ackWaitMs && maxDeliver === this.#state.maxDeliver) return;
    Object.assign(this.#state, { ackWaitMs, maxDeliver });
    this.#host.changed();
  }

  /** Starts delivering to `handler`, at most `maxMessages` calls at once. Returns the function that stops it. */
  subscribe(maxMessages: number, handler: ConsumeOptions["handler"]): () => Promise<void> {
    const subscriber: Subscriber = { maxMessages, handler, inFlight: 0, idleWaiters: [] };
    this.#subscribers.push(subscriber);
    this.notify();
    return async () => {
      const index = this.#subscribers.indexOf(subscriber);
      if (index !== -1) this.#subscribers.splice(index, 1);
      await whenIdle(subscriber);
    };
  }

  /** New messages may be available. */
  notify(): void {
    if (this.#scheduled || this.#closing) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#pump();
    });
  }

  /** Stops every subscriber (waiting for their handlers) and every timer; settlements after this are ignored. */
  async close(): Promise<void> {
    this.#closing = true;
    const idle = this.#subscribers.map(whenIdle);
    this.#subscribers.length = 0;
    // Handlers still running may settle their messages; only then stop listening.
    await Promise.all(idle);
    this.#closed = true;
    for (const entry of this.#pending.values()) clearTimeout(entry.timer);
  }

  #pump(): void {
    if (this.#closing) return;
    for (let subscriber = this.#pickSubscriber(); subscriber; subscriber = this.#pickSubscriber()) {
      const next = this.#takeNext();
      if (!next) return;
      this.#deliver(subscriber, next.message, next.entry);
    }
  }

  #pickSubscriber(): Subscriber | undefined {
    const count = this.#subscribers.length;
    for (let offset = 0; offset < count; offset += 1) {
      const index = (this.#cursor + offset) % count;
      const subscriber = this.#subscribers[index];
      if (subscriber && subscriber.inFlight < subscriber.maxMessages) {
        this.#cursor = (index + 1) % count;
        return subscriber;
      }
    }
    return undefined;
  }

  #takeNext(): { message: StoredMessage; entry: Entry } | undefined {
    for (let seq = this.#ready.shift(); seq !== undefined; seq = this.#ready.shift()) {
      const entry = this.#pending.get(seq);
      if (!entry) continue;
      const message = this.#host.find(seq);
      if (message) return { message, entry };
      this.#pending.delete(seq); // discarded by the stream's limits meanwhile
      this.#host.changed();
    }
    const { message, scannedSeq } = this.#host.nextMatching(this.#state.deliveredSeq, this.#state.filterSubject);
    this.#state.deliveredSeq = Math.max(this.#state.deliveredSeq, scannedSeq);
    if (!message) return undefined;
    const entry: Entry = { count: 0, token: 0, waiting: false, timer: undefined };
    this.#pending.set(message.seq, entry);
    return { message, entry };
  }

  #deliver(subscriber: Subscriber, message: StoredMessage, entry: Entry): void {
    const { seq } = message;
    entry.count += 1;
    entry.token += 1;
    entry.waiting = false;
    const token = entry.token;
    this.#arm(seq, entry, this.#state.ackWaitMs);
    this.#host.changed();
    subscriber.inFlight += 1;
    const fields = { subject: message.subject, data: message.data.slice(), headers: message.headers, seq, deliveryCount: entry.count };
    const delivery = createDelivery(fields, {
      ack: () => this.#settle(seq),
      term: () => this.#settle(seq),
      nak: (delayMs) => this.#nak(seq, token, delayMs),
      working: () => this.#working(seq, token),
    });
    void runHandler(delivery, subscriber.handler).finally(() => {
      subscriber.inFlight -= 1;
      if (subscriber.inFlight === 0) for (const wake of subscriber.idleWaiters.splice(0)) wake();
      this.notify();
    });
  }

  #arm(seq: number, entry: Entry, delayMs: number): void {
    clearTimeout(entry.timer);
    const token = entry.token;
    entry.timer = setTimeout(() => {
      if (this.#pending.get(seq)?.token === token) this.#requeue(seq, entry);
    }, delayMs);
  }

  #requeue(seq: number, entry: Entry): void {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    if (entry.count >= this.#state.maxDeliver) {
      this.#pending.delete(seq); // out of deliveries: JetStream drops it from the consumer too
    } else {
      entry.waiting = true;
      entry.token += 1;
      this.#insertReady(seq);
    }
    this.#host.changed();
    this.notify();
  }

  #settle(seq: number): void {
    const entry = this.#pending.get(seq);
    if (this.#closed || !entry) return;
    clearTimeout(entry.timer);
    this.#pending.delete(seq);
    const index = this.#ready.indexOf(seq);
    if (index !== -1) this.#ready.splice(index, 1);
    this.#host.changed();
  }

  #nak(seq: number, token: number, delayMs: number): void {
    const entry = this.#pending.get(seq);
    if (this.#closed || entry?.token !== token) return;
    if (delayMs === 0) return this.#requeue(seq, entry);
    entry.token += 1; // a later working() of this delivery must not cancel the delay
    this.#arm(seq, entry, delayMs);
  }

  #working(seq: number, token: number): void {
    const entry = this.#pending.get(seq);
    if (this.#closed || entry?.token !== token || entry.waiting) return;
    this.#arm(seq, entry, this.#state.ackWaitMs);
  }

  #insertReady(seq: number): void {
    let index = this.#ready.length;
    while (index > 0 && (this.#ready[index - 1] ?? 0) > seq) index -= 1;
    this.#ready.splice(index, 0, seq);
  }
}

function whenIdle(subscriber: Subscriber): Promise<void> {
  if (subscriber.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => subscriber.idleWaiters.push(resolve));
}
